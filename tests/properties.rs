//! Property tests (proptest): no input panics the notation parsers, and forward and backward
//! generation are exact inverses on random positions of every variant.

mod common;

use common::{random_position, variant, Rng, VARIANTS};
use morris::rules::{for_each_unmove, generate, play};
use morris::{Move, Position, Variant};
use proptest::prelude::*;

fn unmoves(v: &Variant, pos: &Position) -> Vec<(Position, Move)> {
    let mut list = Vec::new();
    for_each_unmove(v, pos, |prev, mv| list.push((prev, mv)));
    list
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn parsing_any_text_never_panics(text in "[WB.w b/0-9x-]{0,40}", which in 0..VARIANTS.len()) {
        let v = variant(VARIANTS[which], None, None);
        if let Ok((pos, turn)) = Position::parse(&v, &text) {
            prop_assert!(pos.check(&v).is_ok());
            let again = pos.to_notation(&v, turn);
            prop_assert_eq!(Position::parse(&v, &again).unwrap(), (pos, turn));
        }
        let _ = Move::parse(v.board(), &text);
    }

    #[test]
    fn moves_and_unmoves_are_inverse(seed in any::<u64>(), which in 0..VARIANTS.len()) {
        let v = variant(VARIANTS[which], None, None);
        let (pos, _) = random_position(&v, &mut Rng::new(seed));
        for mv in generate(&v, &pos) {
            let after = play(&pos, mv);
            prop_assert!(unmoves(&v, &after).contains(&(pos, mv)));
        }
        for (prev, mv) in unmoves(&v, &pos) {
            prop_assert!(prev.check(&v).is_ok());
            prop_assert!(generate(&v, &prev).contains(&mv));
            prop_assert_eq!(play(&prev, mv), pos);
        }
    }
}
