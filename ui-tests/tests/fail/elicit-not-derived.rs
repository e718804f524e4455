use tool_core::elicit::Elicit;

fn ask<T: Elicit>() {}

fn main() {
    // A bare string is no question: a person is asked for an object.
    ask::<String>();
}
