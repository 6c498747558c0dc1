//! Made by `cargo xtask paces` from the runs recorded under docs/results (`estimate::learn`); a test holds it to them.

use super::ClassPace;

pub const PACES: &[ClassPace] = &[
    // 3 recorded runs, 579 configurations.
    ClassPace {
        class: "chromium gpu",
        ms_per_configuration: 173,
        families: &[
            ("access", 247),
            ("banks", 114),
            ("layout", 148),
            ("matmul", 353),
            ("peak", 125),
            ("reduce", 156),
            ("stream", 146),
            ("transpose", 136),
        ],
        host_probe_ms: 23.826,
        host_exponent: 0.286,
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
        host_probe_ms: 0.000,
        host_exponent: 0.000,
    },
    // 3 recorded runs, 1158 configurations.
    ClassPace {
        class: "native gpu",
        ms_per_configuration: 242,
        families: &[
            ("access", 389),
            ("banks", 143),
            ("layout", 152),
            ("matmul", 538),
            ("peak", 483),
            ("reduce", 165),
            ("stream", 130),
            ("transpose", 206),
        ],
        host_probe_ms: 31.022,
        host_exponent: 0.685,
    },
];
