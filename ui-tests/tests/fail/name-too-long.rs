use tool_core::tool;

/// Get the time.
#[tool]
fn get_the_current_time_of_day_in_the_timezone_the_user_is_in_right_now() -> String {
    String::from("noon")
}

fn main() {}
