use tool_core::tools;

struct Counter;

#[tools]
impl Counter {
    /// Counts
    #[tool]
    fn count(&self) -> String {
        "1".to_owned()
    }
}

fn main() {}
