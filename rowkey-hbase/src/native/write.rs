//! Writes and deletes as `Multi`s: rows merged by key, stamped once,
//! batched, a few batches in flight. A row that clears columns and writes
//! cells is one atomic `RowMutations` on the server: unlike through
//! Thrift 1, no reader sees half of it.

use super::store_error;
use crate::gateway::write::WriteOptions;
use futures_util::{StreamExt, TryStreamExt};
use hbase_native::RowMutation;
use rowkey_store::{Row, StoreError, WriteClock, WriteEpoch};
use std::sync::Arc;

/// What a native store writes with.
#[derive(Clone)]
pub(crate) struct NativeWriter {
    pub(crate) client: hbase_native::Client,
    pub(crate) table: Arc<str>,
    pub(crate) clock: Arc<WriteClock>,
    pub(crate) epoch: Arc<WriteEpoch>,
}

impl NativeWriter {
    /// Writes `rows` (checked already), every cell and clear at one stamp.
    pub(crate) async fn write(
        &self,
        rows: Vec<Row>,
        options: WriteOptions,
    ) -> Result<(), StoreError> {
        let _writing = self.epoch.writing();
        let stamp = self.clock.next().max(1) as u64;
        let mutations = Row::merge_repeated(rows)
            .into_iter()
            .map(|row| mutation_of(row, stamp))
            .collect();
        self.send("mutate rows", mutations, options).await
    }

    /// Deletes the rows `keys`, every version at or before one stamp.
    pub(crate) async fn delete(
        &self,
        mut keys: Vec<Vec<u8>>,
        options: WriteOptions,
    ) -> Result<(), StoreError> {
        let _writing = self.epoch.writing();
        let stamp = self.clock.next().max(1) as u64;
        keys.sort();
        keys.dedup();
        let mutations = keys
            .into_iter()
            .map(|key| RowMutation::delete_row(key).at(stamp))
            .collect();
        self.send("delete rows", mutations, options).await
    }

    async fn send(
        &self,
        op: &'static str,
        mutations: Vec<RowMutation>,
        options: WriteOptions,
    ) -> Result<(), StoreError> {
        let batches = batches(mutations, options);
        futures_util::stream::iter(batches.into_iter().map(|batch| {
            let client = self.client.clone();
            let table = self.table.clone();
            async move {
                client
                    .mutate(&table, batch)
                    .await
                    .map_err(|e| store_error(op, &table, e))
            }
        }))
        .buffer_unordered(options.in_flight.max(1))
        .try_collect::<()>()
        .await
    }
}

/// A row as a mutation at `stamp`: its cells, and deletes of the columns
/// it clears.
fn mutation_of(row: Row, stamp: u64) -> RowMutation {
    let mut m = RowMutation::put(row.key).at(stamp);
    for (family, qualifier) in row.clear.iter() {
        m = m.clear(family.as_bytes(), qualifier);
    }
    m.puts = row
        .cells
        .into_iter()
        .map(|c| (c.family.into_bytes(), c.qualifier, c.value))
        .collect();
    m
}

/// Mutations cut into batches of at most `batch_rows` rows and about
/// `batch_bytes` bytes (a larger mutation goes alone).
fn batches(mutations: Vec<RowMutation>, options: WriteOptions) -> Vec<Vec<RowMutation>> {
    let mut out = Vec::new();
    let mut batch = Vec::new();
    let mut bytes = 0;
    for m in mutations {
        let size = m.size();
        if !batch.is_empty()
            && (batch.len() >= options.batch_rows || bytes + size > options.batch_bytes)
        {
            out.push(std::mem::take(&mut batch));
            bytes = 0;
        }
        bytes += size;
        batch.push(m);
    }
    if !batch.is_empty() {
        out.push(batch);
    }
    out
}
