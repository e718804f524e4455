//! What a provider's definitions are made from: a whole registry, or a
//! view of one, each keeping what it made per provider until it changes.

use std::sync::Arc;

use crate::error::tool_error::RegistryError;
use crate::provider::definitions::{Definitions, build_definitions};
use crate::provider::listing::Listing;
use crate::provider::selector::Provider;
use crate::registry::tool_registry::ToolRegistry;
use crate::toolset::view::View;

/// What a provider's definitions are made from
/// ([`Provider::definitions`]): a whole registry, or a [`View`](crate::toolset::View) of one.
/// Each keeps what it made, per provider, until it changes.
pub trait ToolList: sealed::Sealed {
    #[doc(hidden)]
    fn definitions_for(
        &self,
        provider: Provider,
        listing: Listing,
    ) -> Result<Arc<Definitions>, RegistryError>;
}

mod sealed {
    pub trait Sealed {}
    impl<Ctx> Sealed for crate::registry::tool_registry::ToolRegistry<Ctx> {}
    impl<Ctx> Sealed for crate::toolset::view::View<'_, Ctx> {}
}

impl<Ctx: Send + Sync + 'static> ToolList for ToolRegistry<Ctx> {
    fn definitions_for(
        &self,
        provider: Provider,
        listing: Listing,
    ) -> Result<Arc<Definitions>, RegistryError> {
        let made = self.cached((provider.name(), listing.key()), || {
            build_definitions(provider, self.tools(), listing)
        })?;
        if made.listed_as(listing) {
            return Ok(made);
        }
        // Kept: the definitions of another automatic deferral.
        build_definitions(provider, self.tools(), listing).map(Arc::new)
    }
}

impl<Ctx: Send + Sync + 'static> ToolList for View<'_, Ctx> {
    fn definitions_for(
        &self,
        provider: Provider,
        listing: Listing,
    ) -> Result<Arc<Definitions>, RegistryError> {
        let made = self
            .cached
            .get_or_make((provider.name(), listing.key()), || {
                build_definitions(provider, self.tools(), listing)
            })?;
        if made.listed_as(listing) {
            return Ok(made);
        }
        // Kept: the definitions of another automatic deferral.
        build_definitions(provider, self.tools(), listing).map(Arc::new)
    }
}
