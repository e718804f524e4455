//! What the registry's handles share: a borrow of the registry, copied
//! freely, and the method of `ToolRegistry` that gives one.

/// Declares a handle on a registry, `$name<'r, Ctx>`, holding
/// `registry: &'r ToolRegistry<Ctx>`, `Copy` whatever `Ctx` is, and the
/// method `ToolRegistry::$accessor` that gives it.
macro_rules! registry_handle {
    (
        $(#[$doc:meta])*
        $name:ident,
        $(#[$accessor_doc:meta])*
        $accessor:ident
    ) => {
        $(#[$doc])*
        pub struct $name<'r, Ctx = ()> {
            registry: &'r crate::registry::tool_registry::ToolRegistry<Ctx>,
        }

        // Not derived: that would ask `Ctx: Clone` and `Ctx: Debug`.
        impl<Ctx> Clone for $name<'_, Ctx> {
            fn clone(&self) -> Self {
                *self
            }
        }

        impl<Ctx> Copy for $name<'_, Ctx> {}

        impl<Ctx> std::fmt::Debug for $name<'_, Ctx> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($name)).finish_non_exhaustive()
            }
        }

        impl<Ctx: Send + Sync + 'static> crate::registry::tool_registry::ToolRegistry<Ctx> {
            $(#[$accessor_doc])*
            pub fn $accessor(&self) -> $name<'_, Ctx> {
                $name { registry: self }
            }
        }
    };
}

pub(crate) use registry_handle;
