//! Short type names for schema rows and the one-line tool signature built from them,
//! e.g. `search(query: string, limit?: integer = 10) -> string[]`. Pure.

use super::boxing::Boxing;
use super::tree::{Edge, NodeId, SchemaTree};
use serde_json::Value;

/// Enum values listed by name before the type shortens to `enum(N)`.
const MAX_ENUM_SHOWN: usize = 4;
/// Depth of nested unions and arrays spelled out in one type name.
const MAX_TYPE_DEPTH: usize = 4;

/// The short type of a row: `string`, `integer | null`, `Node[]`, `"a" | "b"`, `any`.
pub fn type_text(tree: &SchemaTree, id: NodeId) -> String {
    type_at(tree, id, 0)
}

fn type_at(tree: &SchemaTree, id: NodeId, depth: usize) -> String {
    let node = &tree.nodes[id];
    let f = &node.facts;
    let base = if let Some(b) = f.boolean_schema {
        if b {
            "any".to_string()
        } else {
            "never".to_string()
        }
    } else if let Some(c) = &f.const_value {
        c.to_string()
    } else if let Some(values) = &f.enum_values {
        if values.len() <= MAX_ENUM_SHOWN {
            values
                .iter()
                .map(Value::to_string)
                .collect::<Vec<_>>()
                .join(" | ")
        } else {
            format!("enum({})", values.len())
        }
    } else if depth >= MAX_TYPE_DEPTH {
        f.ref_name.clone().unwrap_or_else(|| joined(&f.types))
    } else if f.types.len() == 1 && f.types[0] == "array" {
        let tuple: Vec<String> = children_where(tree, id, |e| matches!(e, Edge::PrefixItem(_)))
            .map(|c| type_at(tree, c, depth + 1))
            .collect();
        match node
            .children
            .iter()
            .find(|c| tree.nodes[**c].edge == Edge::Items)
        {
            Some(items) => format!("{}[]", wrap(type_at(tree, *items, depth + 1))),
            None if !tuple.is_empty() => format!("[{}]", tuple.join(", ")),
            None => f.ref_name.clone().unwrap_or_else(|| "array".into()),
        }
    } else if let Some(name) = &f.ref_name {
        name.clone()
    } else if f.types.is_empty() {
        let union: Vec<String> =
            children_where(tree, id, |e| matches!(e, Edge::AnyOf(_) | Edge::OneOf(_)))
                .map(|c| branch_name(tree, c, depth + 1))
                .collect();
        let all: Vec<String> = children_where(tree, id, |e| matches!(e, Edge::AllOf(_)))
            .map(|c| branch_name(tree, c, depth + 1))
            .collect();
        match (union.is_empty(), all.is_empty()) {
            (false, _) => union.join(" | "),
            (true, false) => all.join(" & "),
            (true, true) => "any".into(),
        }
    } else {
        joined(&f.types)
    };
    if f.nullable {
        format!("{} | null", base)
    } else {
        base
    }
}

fn children_where(
    tree: &SchemaTree,
    id: NodeId,
    keep: fn(&Edge) -> bool,
) -> impl Iterator<Item = NodeId> + '_ {
    tree.nodes[id]
        .children
        .iter()
        .copied()
        .filter(move |c| keep(&tree.nodes[*c].edge))
}

/// A union or intersection branch: its type; a plain object by its title, else by the first
/// property it fixes with a `const` (a discriminator: `{kind: "cat"}`), so branches that are
/// all objects still read apart.
fn branch_name(tree: &SchemaTree, id: NodeId, depth: usize) -> String {
    let t = type_at(tree, id, depth);
    if t != "object" {
        return t;
    }
    if let Some(title) = &tree.nodes[id].facts.title {
        return title.clone();
    }
    let fixed = children_where(tree, id, |e| matches!(e, Edge::Property(_))).find_map(|c| {
        let node = &tree.nodes[c];
        Some(format!(
            "{{{}: {}}}",
            node.edge.label(),
            node.facts.const_value.as_ref()?
        ))
    });
    fixed.unwrap_or(t)
}

fn joined(types: &[String]) -> String {
    if types.is_empty() {
        "any".into()
    } else {
        types.join(" | ")
    }
}

/// Parenthesises a union before `[]` so `(a | b)[]` reads right.
fn wrap(t: String) -> String {
    if t.contains(" | ") {
        format!("({t})")
    } else {
        t
    }
}

/// `name(a: string, b?: integer = 10) -> T`: required parameters first, then optional ones with
/// defaults (`…` last when the tree was cut); the output is the unboxed type when the output is boxed, omitted when undeclared.
pub fn signature(
    name: &str,
    input: &SchemaTree,
    output: Option<(&SchemaTree, Option<&Boxing>)>,
) -> String {
    let root = input.root();
    let mut params: Vec<(bool, String)> = root
        .children
        .iter()
        .filter_map(|c| {
            let node = &input.nodes[*c];
            let Edge::Property(prop) = &node.edge else {
                return None;
            };
            let mut text = format!(
                "{prop}{}: {}",
                if node.required { "" } else { "?" },
                type_text(input, *c)
            );
            if let Some(d) = &node.facts.default {
                text.push_str(&format!(" = {d}"));
            }
            Some((node.required, text))
        })
        .collect();
    params.sort_by_key(|(required, _)| !*required);
    let mut params: Vec<String> = params.into_iter().map(|(_, t)| t).collect();
    // A tree cut short may lack parameters: say so rather than list some as if all.
    if input.notice.is_some() {
        params.push("…".into());
    }
    let mut out = format!("{name}({})", params.join(", "));
    if let Some((tree, boxing)) = output {
        let inner = boxing.and_then(|b| boxed_field(tree, &b.field));
        out.push_str(" -> ");
        out.push_str(&type_text(tree, inner.unwrap_or(0)));
    }
    out
}

/// The row of the boxed field (`result`) under the output root.
pub fn boxed_field(tree: &SchemaTree, field: &str) -> Option<NodeId> {
    tree.root()
        .children
        .iter()
        .copied()
        .find(|c| matches!(&tree.nodes[*c].edge, Edge::Property(p) if p == field))
}
