//! Made by `cargo xtask paces` from the runs recorded under docs/results (`estimate::learn`); a test holds it to them.

use super::ClassPace;

pub const PACES: &[ClassPace] = &[
    // 2 recorded runs, 386 configurations.
    ClassPace {
        class: "chromium gpu",
        ms_per_configuration: 248,
        families: &[
            ("access", 377),
            ("banks", 139),
            ("layout", 251),
            ("matmul", 422),
            ("peak", 153),
            ("reduce", 188),
            ("stream", 217),
            ("transpose", 216),
        ],
    },
    // 1 recorded run, 386 configurations.
    ClassPace {
        class: "native cpu",
        ms_per_configuration: 1408,
        families: &[
            ("access", 1948),
            ("banks", 800),
            ("layout", 1286),
            ("matmul", 309),
            ("peak", 866),
            ("reduce", 1115),
            ("stream", 1596),
            ("transpose", 1855),
        ],
    },
    // 7 recorded runs, 833 configurations.
    ClassPace {
        class: "native gpu",
        ms_per_configuration: 161,
        families: &[
            ("access", 218),
            ("banks", 113),
            ("layout", 96),
            ("matmul", 428),
            ("peak", 423),
            ("reduce", 124),
            ("stream", 101),
            ("transpose", 104),
        ],
    },
];
