//! The reading paths give the same result to the byte: from the text or
//! from a value, with the schema checked first ([`Validation::Always`]) or
//! only when reading fails (`Auto`, for a tool whose reading implies its
//! schema), over tools of every shape people write.

pub(crate) mod shapes;
pub(crate) mod text_path;
