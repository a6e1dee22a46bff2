struct Server;

#[tool_core::tools]
impl Server {
    /// Generic.
    #[tool_core::tool]
    fn show<T: std::fmt::Display>(&self, n: u8) -> String {
        n.to_string()
    }
}

fn main() {}
