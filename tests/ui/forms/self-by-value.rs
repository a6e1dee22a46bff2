struct Server;

#[tool_core::tools]
impl Server {
    /// Takes the server.
    #[tool_core::tool]
    fn consume(self, n: u8) -> String {
        n.to_string()
    }

    /// Changes the server.
    #[tool_core::tool]
    fn change(&mut self, n: u8) -> String {
        n.to_string()
    }
}

fn main() {}
