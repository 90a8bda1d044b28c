//! What the drawing asks of the library without changing it.

use crate::app::model::Model;
use crate::app::tabs::Tab;

/// The tabs the server has.
pub fn tabs(model: &Model) -> Vec<Tab> {
    Tab::declared(model.session.server.as_ref().map(|s| &s.capabilities))
}
