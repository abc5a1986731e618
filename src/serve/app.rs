//! What the handlers share: the catalog of rule sets, the bound on database work, the timeout.

use std::sync::Arc;
use std::time::Duration;

use super::answer::ApiError;
use super::catalog::{Catalog, Opened};
use super::params::Params;
use crate::rules::Variant;

/// What the handlers share.
pub(super) struct App {
    pub(super) catalog: Catalog,
    /// Bounds the database work in flight on blocking threads.
    pub(super) work: Arc<tokio::sync::Semaphore>,
    pub(super) timeout: Duration,
}

impl App {
    /// The variant, rule set and database the parameters select.
    pub(super) fn select(&self, p: &Params) -> Result<(Arc<Opened>, Variant), ApiError> {
        let variant = self.catalog.variant(p.variant(), p.overrides()?)?;
        let opened = self.catalog.open(&variant)?;
        Ok((opened, variant))
    }
}
