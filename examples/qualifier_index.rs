//! The other classic wide-row design: qualifiers as an ordered index
//! inside a row. A game's row holds its leaderboard in family `i`, one
//! cell per entry, the qualifier the (score, player) pair with the score
//! descending, so a row's cells are its ranking: the top 10 is the first
//! 10 cells (a per-row cap the servers apply), a score band is a
//! qualifier range, and a player's old entry is deleted as a slice.
//!
//! Run: `cargo run --example qualifier_index`

use futures::TryStreamExt;
use rowkey::store::{MemStore, WideColumn, WideStoreExt};
use rowkey::RowKey;

/// A game: the row.
#[derive(RowKey)]
struct Game {
    id: u32,
}

/// An entry of the ranking: highest score first, then player id.
#[derive(RowKey, Debug, Clone, Copy, PartialEq)]
struct Entry {
    #[desc]
    score: u32,
    player: u64,
}

/// The ranking: entries, each holding the time it was set.
const RANKING: WideColumn<Entry, i64> = WideColumn::new("i");

fn main() -> Result<(), Box<dyn std::error::Error>> {
    futures::executor::block_on(async {
        let store = MemStore::new();
        let game = Game { id: 7 };
        let entries = (0..1000u64).map(|p| {
            (
                Entry {
                    score: ((p * 7919) % 5000) as u32,
                    player: p,
                },
                p as i64,
            )
        });
        store.put_cells(&game, &RANKING, entries).await?;

        // The top 10: the row's first 10 cells.
        let top: Vec<(Entry, i64)> = store
            .read_cells(&game, &RANKING, RANKING.all().per_row(10))
            .try_collect()
            .await?;
        assert!(top.windows(2).all(|w| w[0].0.score >= w[1].0.score));
        println!("top 3: {:?}", &top[..3]);

        // Scores from 3,000 down to 2,000: a qualifier range (descending
        // scores, so the higher bound comes first).
        let band = RANKING.slice_of(&Entry::scan().score.range(2000..=3000)?)?;
        let in_band: Vec<(Entry, i64)> = store
            .read_cells(&game, &RANKING, band)
            .try_collect()
            .await?;
        assert!(in_band
            .iter()
            .all(|(e, _)| (2000..=3000).contains(&e.score)));
        println!("{} entries score 2,000 to 3,000", in_band.len());

        // Player 42 improves: the old entry goes (a slice of one cell), the
        // new one is written.
        let old = Entry {
            score: ((42 * 7919) % 5000) as u32,
            player: 42,
        };
        let one = RANKING.between(&old, &Entry { player: 43, ..old })?;
        assert_eq!(store.delete_cells(&game, &RANKING, one).await?, 1);
        store
            .put_cells(
                &game,
                &RANKING,
                [(
                    Entry {
                        score: 4999,
                        player: 42,
                    },
                    2000,
                )],
            )
            .await?;
        let top: Vec<(Entry, i64)> = store
            .read_cells(&game, &RANKING, RANKING.all().per_row(1))
            .try_collect()
            .await?;
        assert_eq!(
            top[0].0,
            Entry {
                score: 4999,
                player: 42
            }
        );
        println!("new leader: {:?}", top[0].0);
        Ok(())
    })
}
