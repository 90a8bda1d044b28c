//! A schema as a tree of display rows: `$ref`s resolved with their names kept, recursion shown as
//! a back-link to the ancestor, every keyword visible, bounded in depth and size. Pure.

use super::describe::{Facts, View, describe};
use super::refs::{Document, MAX_HINTS, RefTarget, escape_segment, same_named_hint};
use serde_json::{Map, Value};

pub type NodeId = usize;

/// Rows a tree may hold; a larger schema stops here with a notice.
pub const MAX_NODES: usize = 100_000;
/// Rows built inside expanded `$ref`s before further `$ref`s are shown unexpanded. Only refs
/// can make a tree exponentially larger than its schema (a ref bomb); this keeps such a tree
/// small and quick while every row outside refs is still built.
pub const MAX_REF_ROWS: usize = 10_000;
/// Nesting depth past which a subschema is shown but not expanded.
pub const MAX_DEPTH: usize = 64;
/// `$ref` hops followed from one place before giving up on a chain.
const MAX_REF_HOPS: usize = 32;
/// An outline's rows and depth (see [`SchemaTree::outline`]): a one-line signature reads the
/// root's properties and types a few levels down, and is cut at a few hundred characters.
const OUTLINE_ROWS: usize = 2_000;
const OUTLINE_DEPTH: usize = 6;

/// How a row hangs from its parent: the keyword (and key or index) that leads to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edge {
    Root,
    Property(String),
    PatternProperty(String),
    AdditionalProperties,
    UnevaluatedProperties,
    PropertyNames,
    DependentSchema(String),
    Items,
    PrefixItem(usize),
    AdditionalItems,
    UnevaluatedItems,
    Contains,
    AnyOf(usize),
    OneOf(usize),
    AllOf(usize),
    Not,
    If,
    Then,
    Else,
    ContentSchema,
}

impl Edge {
    /// The label a person reads: the property name, or the keyword that leads here.
    pub fn label(&self) -> String {
        match self {
            Edge::Root => "(root)".into(),
            Edge::Property(name) => name.clone(),
            Edge::PatternProperty(p) => format!("/{p}/"),
            Edge::AdditionalProperties => "(additional properties)".into(),
            Edge::UnevaluatedProperties => "(unevaluated properties)".into(),
            Edge::PropertyNames => "(property names)".into(),
            Edge::DependentSchema(k) => format!("(if {k} present)"),
            Edge::Items => "[]".into(),
            Edge::PrefixItem(i) => format!("[{i}]"),
            Edge::AdditionalItems => "(additional items)".into(),
            Edge::UnevaluatedItems => "(unevaluated items)".into(),
            Edge::Contains => "(contains)".into(),
            Edge::AnyOf(i) => format!("anyOf[{i}]"),
            Edge::OneOf(i) => format!("oneOf[{i}]"),
            Edge::AllOf(i) => format!("allOf[{i}]"),
            Edge::Not => "not".into(),
            // Conditions read as what they are, never like a property named `if`.
            Edge::If => "(if)".into(),
            Edge::Then => "(then: when if holds)".into(),
            Edge::Else => "(else: when if fails)".into(),
            Edge::ContentSchema => "(content schema)".into(),
        }
    }

    /// How the instance location changes along this edge: a key, any element, or unchanged.
    fn instance_step(&self) -> Option<String> {
        match self {
            Edge::Property(name) => Some(escape_segment(name)),
            Edge::PrefixItem(i) => Some(i.to_string()),
            Edge::PatternProperty(_)
            | Edge::AdditionalProperties
            | Edge::UnevaluatedProperties
            | Edge::Items
            | Edge::AdditionalItems
            | Edge::UnevaluatedItems
            | Edge::Contains => Some("*".into()),
            _ => None,
        }
    }
}

/// One row of the tree.
#[derive(Debug, Clone)]
pub struct SchemaNode {
    pub parent: Option<NodeId>,
    pub children: Vec<NodeId>,
    pub edge: Edge,
    pub required: bool,
    /// JSON Pointer (in the schema document) of the subschema this row shows.
    pub pointer: String,
    /// Keyword path from the root through any `$ref`, as validators report it.
    pub eval_path: String,
    /// The instance location this row describes; `*` stands for any key or index.
    pub instance_path: String,
    pub facts: Facts,
}

/// A whole schema as rows; `nodes[0]` is the root.
#[derive(Debug, Clone)]
pub struct SchemaTree {
    pub nodes: Vec<SchemaNode>,
    /// Set when a cap cut the tree short.
    pub notice: Option<String>,
}

impl SchemaTree {
    pub fn build(schema: &Value) -> SchemaTree {
        SchemaTree::within(schema, MAX_NODES, MAX_DEPTH)
    }

    /// The first rows only, a few levels deep: enough for a signature, never a whole 30,000-
    /// property schema's rows (a `notice` says when it was cut).
    pub fn outline(schema: &Value) -> SchemaTree {
        SchemaTree::within(schema, OUTLINE_ROWS, OUTLINE_DEPTH)
    }

    fn within(schema: &Value, max_rows: usize, max_depth: usize) -> SchemaTree {
        let doc = Document::new(schema);
        let mut builder = Builder {
            doc: &doc,
            max_rows,
            max_depth,
            nodes: Vec::new(),
            notice: None,
            ancestors: Vec::new(),
            ref_rows: 0,
            inside_refs: 0,
            hints: Default::default(),
        };
        builder.add(
            None,
            Edge::Root,
            false,
            schema,
            String::new(),
            String::new(),
            0,
        );
        SchemaTree {
            nodes: builder.nodes,
            notice: builder.notice,
        }
    }

    pub fn root(&self) -> &SchemaNode {
        &self.nodes[0]
    }

    /// Every row with a problem (dangling or foreign `$ref`, too deep), in tree order.
    pub fn problems(&self) -> impl Iterator<Item = (NodeId, &str)> {
        self.nodes
            .iter()
            .enumerate()
            .filter_map(|(id, n)| n.facts.problem.as_deref().map(|p| (id, p)))
    }

    /// The row that best matches a validator's evaluation path: the deepest row whose
    /// `eval_path` is a prefix of it.
    pub fn node_for_eval_path(&self, eval_path: &str) -> NodeId {
        let mut best = 0;
        let mut best_len = 0;
        for (id, node) in self.nodes.iter().enumerate() {
            let p = node.eval_path.as_str();
            let is_prefix = eval_path.starts_with(p)
                && (eval_path.len() == p.len() || eval_path.as_bytes()[p.len()] == b'/');
            if is_prefix && p.len() > best_len {
                best = id;
                best_len = p.len();
            }
        }
        best
    }

    /// The chain of edges from the root to a row, for addressing it in a tree widget.
    pub fn path_to(&self, mut id: NodeId) -> Vec<NodeId> {
        let mut path = vec![id];
        while let Some(parent) = self.nodes[id].parent {
            path.push(parent);
            id = parent;
        }
        path.reverse();
        path
    }
}

struct Builder<'d, 'a> {
    doc: &'d Document<'a>,
    /// [`MAX_NODES`] and [`MAX_DEPTH`], or an outline's.
    max_rows: usize,
    max_depth: usize,
    nodes: Vec<SchemaNode>,
    notice: Option<String>,
    /// Ref targets being expanded on the current path, with the row that expanded each.
    ancestors: Vec<(String, NodeId)>,
    /// Rows built so far inside expanded refs (see [`MAX_REF_ROWS`]).
    ref_rows: usize,
    /// How many expanded refs the row being built is inside.
    inside_refs: usize,
    /// Hints for dangling refs, by reference (each scans the schema once; a few at most).
    hints: std::cell::RefCell<std::collections::HashMap<String, Option<String>>>,
}

/// A subschema with the `$ref` chain behind it resolved into layers, nearest first.
struct Resolved<'a> {
    view: View<'a>,
    ref_name: Option<String>,
    targets: Vec<String>,
    back_link: Option<NodeId>,
    problem: Option<String>,
    boolean: Option<bool>,
}

impl<'d, 'a> Builder<'d, 'a> {
    #[allow(clippy::too_many_arguments)]
    fn add(
        &mut self,
        parent: Option<NodeId>,
        edge: Edge,
        required: bool,
        schema: &'a Value,
        pointer: String,
        eval_path: String,
        depth: usize,
    ) -> Option<NodeId> {
        if self.nodes.len() >= self.max_rows {
            self.notice = Some(format!(
                "schema tree cut at {} rows; the schema is larger",
                self.max_rows
            ));
            return None;
        }
        let instance_path = match (parent, edge.instance_step()) {
            (Some(p), Some(step)) => format!("{}/{step}", self.nodes[p].instance_path),
            (Some(p), None) => self.nodes[p].instance_path.clone(),
            (None, _) => String::new(),
        };
        let mut resolved = self.resolve(schema, pointer.clone(), eval_path.clone());
        let id = self.nodes.len();
        // The root is its own first ancestor, so `$ref: "#"` is recursion too.
        if parent.is_none() {
            self.ancestors.push((String::new(), id));
        }
        let mut facts = describe(&resolved.view);
        facts.ref_name = resolved.ref_name.take();
        facts.back_link = resolved.back_link;
        facts.boolean_schema = resolved.boolean;
        facts.problem = resolved.problem.take();
        let through_ref = !resolved.targets.is_empty();
        let mut expand = resolved.back_link.is_none() && facts.problem.is_none();
        if depth >= self.max_depth && expand {
            facts.problem = Some(format!(
                "nested deeper than {} levels; not expanded",
                self.max_depth
            ));
        } else if expand && through_ref && self.ref_rows >= MAX_REF_ROWS {
            facts.problem = Some(format!(
                "not expanded: $refs in this schema already expand to {MAX_REF_ROWS} rows (see the definition itself)"
            ));
            expand = false;
        }
        if self.inside_refs > 0 {
            self.ref_rows += 1;
        }
        self.nodes.push(SchemaNode {
            parent,
            children: Vec::new(),
            edge,
            required,
            pointer,
            eval_path,
            instance_path,
            facts,
        });
        if let Some(p) = parent {
            self.nodes[p].children.push(id);
        }
        if expand && depth < self.max_depth {
            let pushed = resolved.targets.len();
            for t in resolved.targets.drain(..) {
                self.ancestors.push((t, id));
            }
            self.inside_refs += usize::from(through_ref);
            self.add_children(id, &resolved.view, depth);
            self.inside_refs -= usize::from(through_ref);
            self.ancestors.truncate(self.ancestors.len() - pushed);
        }
        Some(id)
    }

    /// Follows `$ref` chains (and the nullable `anyOf [T, null]` shape) into display layers.
    fn resolve(&self, schema: &'a Value, pointer: String, eval: String) -> Resolved<'a> {
        let mut out = Resolved {
            view: View::default(),
            ref_name: None,
            targets: Vec::new(),
            back_link: None,
            problem: None,
            boolean: schema.as_bool(),
        };
        self.push_layers(&mut out, schema, pointer, eval);
        if let Some((branch, p, e)) = out.view.nullable_branch() {
            out.view.nullable = true;
            self.push_layers(&mut out, branch, p, e);
        }
        out
    }

    /// Where a same-named definition sits, for the first [`MAX_HINTS`] dangling references.
    fn hint(&self, reference: &str) -> String {
        let mut hints = self.hints.borrow_mut();
        if !hints.contains_key(reference) && hints.len() < MAX_HINTS {
            let hint = same_named_hint(self.doc.root(), reference);
            hints.insert(reference.to_string(), hint);
        }
        match hints.get(reference) {
            Some(Some(hint)) => format!(" ({hint})"),
            _ => String::new(),
        }
    }

    fn push_layers(
        &self,
        out: &mut Resolved<'a>,
        mut schema: &'a Value,
        mut pointer: String,
        mut eval: String,
    ) {
        for _ in 0..MAX_REF_HOPS {
            let Some(map) = schema.as_object() else {
                return;
            };
            out.view.push(map, pointer.clone(), eval.clone());
            let Some(Value::String(reference)) = map.get("$ref") else {
                return;
            };
            match self.doc.resolve(reference) {
                RefTarget::Found {
                    pointer: target,
                    name,
                    schema: next,
                } => {
                    out.ref_name.get_or_insert(name);
                    if let Some((_, row)) = self.ancestors.iter().find(|(t, _)| *t == target) {
                        out.back_link = Some(*row);
                        return;
                    }
                    if out.targets.contains(&target) {
                        out.problem = Some(format!("$ref cycle through {reference}"));
                        return;
                    }
                    out.targets.push(target.clone());
                    schema = next;
                    pointer = target;
                    eval.push_str("/$ref");
                }
                RefTarget::Dangling => {
                    let hint = self.hint(reference);
                    out.problem = Some(format!(
                        "dangling $ref {reference}: no such place in this schema{hint}"
                    ));
                    return;
                }
                RefTarget::NotFetched => {
                    out.problem = Some(format!(
                        "$ref {reference} points outside this schema: not fetched"
                    ));
                    return;
                }
            }
        }
        out.problem = Some(format!("$ref chain longer than {MAX_REF_HOPS} hops"));
    }

    fn add_children(&mut self, id: NodeId, view: &View<'a>, depth: usize) {
        let required = view.required();
        for (keyword, value, pointer, eval) in view.child_schemas() {
            let edges: Vec<(Edge, &'a Value, String)> = match (keyword, value) {
                ("properties", Value::Object(m)) => keyed(m, Edge::Property),
                ("patternProperties", Value::Object(m)) => keyed(m, Edge::PatternProperty),
                ("dependentSchemas", Value::Object(m)) => keyed(m, Edge::DependentSchema),
                ("dependencies", Value::Object(m)) => keyed(m, Edge::DependentSchema)
                    .into_iter()
                    .filter(|(_, v, _)| !v.is_array())
                    .collect(),
                ("prefixItems" | "items", Value::Array(a)) => indexed(a, Edge::PrefixItem),
                ("allOf", Value::Array(a)) => indexed(a, Edge::AllOf),
                ("anyOf", Value::Array(a)) if !view.nullable => indexed(a, Edge::AnyOf),
                ("oneOf", Value::Array(a)) => indexed(a, Edge::OneOf),
                ("additionalProperties", v) if v.is_object() => {
                    vec![(Edge::AdditionalProperties, v, String::new())]
                }
                ("unevaluatedProperties", v) if v.is_object() => {
                    vec![(Edge::UnevaluatedProperties, v, String::new())]
                }
                ("additionalItems", v) if v.is_object() => {
                    vec![(Edge::AdditionalItems, v, String::new())]
                }
                ("unevaluatedItems", v) if v.is_object() => {
                    vec![(Edge::UnevaluatedItems, v, String::new())]
                }
                ("items", v) if v.is_object() => vec![(Edge::Items, v, String::new())],
                ("propertyNames", v) if v.is_object() => {
                    vec![(Edge::PropertyNames, v, String::new())]
                }
                ("contains", v) if v.is_object() || v.is_boolean() => {
                    vec![(Edge::Contains, v, String::new())]
                }
                ("not", v) => vec![(Edge::Not, v, String::new())],
                ("if", v) => vec![(Edge::If, v, String::new())],
                ("then", v) => vec![(Edge::Then, v, String::new())],
                ("else", v) => vec![(Edge::Else, v, String::new())],
                ("contentSchema", v) => vec![(Edge::ContentSchema, v, String::new())],
                _ => Vec::new(),
            };
            for (edge, child, key) in edges {
                let is_required =
                    matches!(&edge, Edge::Property(name) if required.contains(&name.as_str()));
                let (p, e) = if key.is_empty() {
                    (pointer.clone(), eval.clone())
                } else {
                    (format!("{pointer}/{key}"), format!("{eval}/{key}"))
                };
                if self
                    .add(Some(id), edge, is_required, child, p, e, depth + 1)
                    .is_none()
                {
                    return;
                }
            }
        }
    }
}

fn keyed(map: &Map<String, Value>, edge: fn(String) -> Edge) -> Vec<(Edge, &Value, String)> {
    map.iter()
        .map(|(k, v)| (edge(k.clone()), v, escape_segment(k)))
        .collect()
}

fn indexed(items: &[Value], edge: fn(usize) -> Edge) -> Vec<(Edge, &Value, String)> {
    items
        .iter()
        .enumerate()
        .map(|(i, v)| (edge(i), v, i.to_string()))
        .collect()
}
