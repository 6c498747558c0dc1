-- One row per published result. The same SQL runs on SQLite and PostgreSQL: TEXT, BIGINT and DOUBLE
-- PRECISION only, ids made by the server, no autoincrement.
CREATE TABLE results (
    id TEXT PRIMARY KEY,
    -- SHA-256 of the stored JSON: an identical result is stored once.
    digest TEXT NOT NULL UNIQUE,
    -- The device class (wgsweep::gallery::DeviceClass) and its parts, for browsing and searching.
    class_key TEXT NOT NULL,
    adapter TEXT NOT NULL,
    vendor TEXT NOT NULL,
    backend TEXT NOT NULL,
    runtime TEXT NOT NULL,
    label TEXT NOT NULL,
    -- When the run started (its own clock) and when it was published (the server's).
    created TEXT NOT NULL,
    published TEXT NOT NULL,
    copy_gbps DOUBLE PRECISION,
    fma_gflops DOUBLE PRECISION,
    configurations BIGINT NOT NULL,
    -- SHA-256 of the deletion token handed to the publisher; the token itself is never stored.
    token_digest TEXT NOT NULL,
    body TEXT NOT NULL
);

CREATE INDEX results_by_class ON results (class_key, published);
