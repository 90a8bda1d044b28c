//! The crate's surface for its tests and benchmarks, by the paths the code has: everything
//! else is private to the crate, so rustc reports what nothing uses. An item a test needs is
//! added here, at its own path.

pub mod conform {
    pub use crate::conform::{Finding, Level, Seen, Status};
}

pub mod app {
    pub mod asked {
        pub mod state {
            pub use crate::app::asked::state::MAX_WAITING;
        }
    }
    pub mod call {
        pub mod result_text {
            pub use crate::app::call::result_text::ResultText;
        }
        pub mod state {
            pub use crate::app::call::state::{
                CallState, Judged, Made, NOT_CHECKED_YET, Outcome, Record,
            };
        }
    }
    pub mod copy {
        pub use crate::app::copy::Clipping;
    }
    pub mod effect {
        pub use crate::app::effect::{Effect, Handed, SessionRequest};
    }
    pub mod keymap {
        pub use crate::app::keymap::{Key, Keymap};
    }
    pub mod library {
        pub mod state {
            pub use crate::app::library::state::{Item, Kind, Open};
        }
        pub mod update {
            pub use crate::app::library::update::file_name;
        }
    }
    pub mod model {
        pub use crate::app::model::{Model, Overlay, Pane};
    }
    pub mod picker {
        pub use crate::app::picker::{LiveTap, Picked, Picker};
    }
    pub mod saved {
        pub mod kept_tests {
            pub use crate::app::saved::state::KeptTests;
        }
        pub mod state {
            pub use crate::app::saved::state::SavedTool;
        }
    }
    pub mod server {
        pub mod state {
            pub use crate::app::server::state::Connection;
        }
    }
    pub mod theme {
        pub use crate::app::theme::Theme;
    }
    pub mod trial {
        pub mod state {
            pub use crate::app::trial::state::Sample;
        }
        pub mod update {
            pub use crate::app::trial::update::Update;
        }
    }
    pub mod tools {
        pub mod state {
            pub use crate::app::tools::state::{ToolDetail, Which};
        }
        pub mod tree_view {
            pub use crate::app::tools::tree_view::visible_rows;
        }
    }
    pub mod update {
        pub use crate::app::update::{Effect, Listed, Msg, SessionRequest, update};
    }
}
pub mod cli {
    pub mod reference {
        pub use crate::cli::reference::flags_markdown;
    }
}
pub mod config {
    pub mod client_configs {
        pub use crate::config::client_configs::{Places, discover};
    }
    pub mod target {
        pub use crate::config::target::{HttpTransport, Target};
    }
}
pub mod demo {
    pub mod catalog {
        pub use crate::demo::catalog::tools;
    }
    pub mod library {
        pub use crate::demo::library::{prompts, resources, templates};
    }
    pub mod skills {
        pub use crate::demo::skills::entry;
    }
}
pub mod drift {
    pub mod compare {
        pub use crate::drift::compare::{Audience, Change, Verdict, tools};
    }
}
pub mod mcp {
    pub use crate::mcp::{
        AuthStep, ConnectOptions, EventReceiver, EventSink, ProtocolChoice, RequestError,
        ServerEvent, ServerSummary, ToolList, connect,
    };
    pub mod session {
        pub mod client_side {
            pub use crate::mcp::session::client_side::{file_uri, root_uris};
        }
        pub mod requests {
            pub use crate::mcp::session::requests::{Completion, CompletionRef, OpenRequest};
        }
    }
    pub mod surface {
        pub mod picture {
            pub use crate::mcp::surface::picture::{decode, in_opened};
        }
        pub mod result {
            pub use crate::mcp::surface::result::CallResult;
        }
        pub mod tool {
            pub use crate::mcp::surface::tool::{Tool, decode_page, decode_tool};
        }
    }
    pub mod transport {
        pub mod wire {
            pub use crate::mcp::transport::wire::{
                Direction, HttpExchange, Tap, WireLog, WireMessage,
            };
        }
    }
}
pub mod runtime {
    pub use crate::runtime::frame;
    pub mod event_loop {
        pub use crate::runtime::event_loop::{Edge, Ended, Input, run_loop};
    }
}
pub mod schema {
    pub use crate::schema::{Boxer, Compiled, Edge, Era, SchemaTree, Status, Unusable, Verdict};
    pub mod boxing {
        pub use crate::schema::boxing::detect;
    }
    pub mod lint {
        pub use crate::schema::lint::{Finding, Severity, ToolSchemas, lint};
    }
    pub mod signature {
        pub use crate::schema::signature::{signature, type_text};
    }
    pub mod skeleton {
        pub use crate::schema::generate::skeleton;
    }
    pub mod tree {
        pub use crate::schema::tree::{MAX_NODES, MAX_REF_ROWS};
    }
    pub mod validate {
        pub use crate::schema::validate::{VALIDATION_BUDGET, Violation};
    }
    pub mod verdict {
        pub use crate::schema::verdict::{Mirror, ResultView, Verdict, verdict};
    }
}
pub mod secrets {
    pub use crate::secrets::register;
}
pub mod ui {
    pub use crate::ui::draw_picker;
}
