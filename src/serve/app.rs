//! What the handlers share: the catalog of rule sets, the bound on database work, the timeout.

use std::sync::Arc;
use std::time::Duration;

use super::catalog::Catalog;

/// What the handlers share.
pub(super) struct App {
    pub(super) catalog: Catalog,
    /// Bounds the database work in flight on blocking threads.
    pub(super) work: Arc<tokio::sync::Semaphore>,
    pub(super) timeout: Duration,
}
