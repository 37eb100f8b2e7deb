//! `#[plugin]` handles `#[tool]`, `#[command]`, `#[hook_handler]` and `#[action]` on its methods
//! without their imports; where the crate imports them, the imports are used.
#![deny(unused_imports)]

mod bare {
    use toolhook::hooks::HookArgs;
    use toolhook::plugin;

    #[derive(Default)]
    pub struct Notes;

    /// Notes.
    #[plugin(id = "acme.notes")]
    impl Notes {
        /// Save a note.
        #[tool]
        #[command]
        async fn save(
            &self,
            /// The text.
            text: String,
        ) -> String {
            text
        }

        /// Look at every message.
        #[hook_handler("chat.receive.before_process")]
        async fn seen(&self, args: HookArgs) {
            let _ = args;
        }

        /// Poke someone.
        #[allow(deprecated)]
        #[action]
        async fn poke(&self, target: Option<String>) -> String {
            target.unwrap_or_default()
        }
    }
}

mod imported {
    use toolhook::{command, plugin, tool};

    #[derive(Default)]
    pub struct Todo;

    /// To-dos.
    #[plugin(id = "acme.todo")]
    impl Todo {
        /// Add a to-do.
        #[tool]
        #[command]
        async fn add(
            &self,
            /// The task.
            task: String,
        ) -> String {
            task
        }
    }
}

fn main() {
    let _ = (bare::Notes, imported::Todo);
}
