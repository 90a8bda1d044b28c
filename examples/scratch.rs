use rmcp::model::ServerResult;
fn main() {
    for s in [
        r#"{"tools":[{"name":"a","inputSchema":{"type":"object"},"weird":1}]}"#,
        r#"{"tools":[{"name":"a","inputSchema":{"type":"object"}}, {"name":5}]}"#,
        r#"{"tools":[],"nextCursor":"x"}"#,
        r#"{"structuredContent":{"a":1}}"#,
        r#"{"structuredContent":null,"content":[]}"#,
        r#"{"content":[{"type":"text","text":"x","extra":1}],"isError":false,"structuredContent":0, "_meta":{"a":1}}"#,
        r#"{"content":[{"type":"hologram"}]}"#,
    ] {
        let v: serde_json::Value = serde_json::from_str(s).unwrap();
        let r: ServerResult = serde_json::from_value(v.clone()).unwrap();
        let back = serde_json::to_value(&r).unwrap();
        println!("{} -> {}\n   same={} back={}", s, format!("{:?}", r).split('(').next().unwrap(), back == v, back);
    }
}
