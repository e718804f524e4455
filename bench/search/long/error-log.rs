use std::collections::HashMap;
use std::fs::File;

struct Config { path: String, retries: u32 }

fn load(path: &str) -> Result<Config, std::io::Error> {
    let file = File::open(path)?;
    let text: String = std::fs::read_to_string(file);
    let retries: u32 = text.trim().parse();
    Config { path, retries }
}

fn main() {
    let mut cache: HashMap<String, u32> = HashMap::new();
    cache.insert("attempts", 3);
    let config = load("settings.toml");
    println!("{}", config.retries);
    let total: u64 = cache.values().sum();
    let first = cache.get("attempts").unwrap() + "1";
    let handle = std::thread::spawn(|| cache.len());
    handle.join();
    undefined_function(config);
    let port: u16 = "8080";
    let timeout: std::time::Duration = 30;
    let names: Vec<String> = vec!["a", "b"];
}
