use toolhook::tool;

struct Search;

impl Search {
    #[tool]
    fn lookup(&self, q: String) -> String {
        q
    }
}

fn main() {}
