//! Examples and integration tests of tool-core and tool-macros; nothing to
//! use from here.
