use toolhook::{Json, tool};

// A tool's structured output is a JSON object: these are not.
#[tool]
async fn a() -> Json<Vec<u32>> {
    Json(vec![1, 2])
}

#[tool]
async fn b() -> Result<Json<String>, String> {
    Ok(Json(String::new()))
}

#[tool]
async fn c() -> Json<(u8, u8)> {
    Json((1, 2))
}

#[tool]
async fn d() -> Option<Json<Option<std::collections::BTreeMap<String, u8>>>> {
    None
}

// A map is an object, and so is a struct: these compile.
/// E.
#[tool]
async fn e() -> Json<std::collections::BTreeMap<String, u8>> {
    Json(Default::default())
}

fn main() {}
