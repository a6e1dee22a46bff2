mod custom {
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
        <u8 as serde::Deserialize>::deserialize(d)
    }
}

#[derive(tool_core::ToolArgs)]
struct Args {
    #[serde(deserialize_with = "custom::deserialize")]
    days: u8,
}

fn main() {}
