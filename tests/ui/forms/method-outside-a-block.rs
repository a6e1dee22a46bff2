struct Service;

impl Service {
    /// A method.
    #[tool_core::tool]
    fn method(&self) -> String {
        String::new()
    }
}

fn main() {}
