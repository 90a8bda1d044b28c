//! Tier 1, pure logic: the schema engine (trees, verdicts, budgets, properties), every captured
//! exchange with real servers judged, and the code's own layering.

mod architecture;
mod captures;
mod docs;
mod drift;
mod schema_budgets;
mod schema_props;
mod schema_tree;
mod schema_verdict;

#[path = "../support/captures.rs"]
mod capture_files;
