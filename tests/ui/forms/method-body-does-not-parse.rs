// A method's body that does not parse gets rustc's own error, at the fault, alone: `#[tools]`
// hands the bodies over as written (it used to refuse the whole block as not an `impl`).
struct Server;

#[tool_core::tools]
impl Server {
    /// Has a typo in its body.
    #[tool_core::tool]
    fn add(&self, a: u8, b: u8) -> String {
        let sum = a + b
        sum.to_string()
    }

    const LIMIT: u8 = 10;
}

fn main() {}
