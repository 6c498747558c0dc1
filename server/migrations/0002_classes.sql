-- What the gallery answers for each device class, kept up to date in the transaction of every publish and
-- delete (wgsweep::gallery::ClassFigures), so that no request computes it from stored bodies.
CREATE TABLE classes (
    class_key TEXT PRIMARY KEY,
    adapter TEXT NOT NULL,
    vendor TEXT NOT NULL,
    backend TEXT NOT NULL,
    runtime TEXT NOT NULL,
    -- Every result of the class.
    results BIGINT NOT NULL,
    -- The latest results the figures below stand for (at most wgsweep::gallery::CLASS_WINDOW).
    window_results BIGINT NOT NULL,
    -- The median of those results' best copy and FMA figures.
    copy_gbps DOUBLE PRECISION,
    fma_gflops DOUBLE PRECISION,
    -- Their median result and their presets, as JSON.
    median TEXT NOT NULL,
    presets TEXT NOT NULL
);

-- Each result as a share link's payload (wgsweep::share): the compact form a class's figures are made from.
-- Results stored before this column was added get it when the server starts.
ALTER TABLE results ADD COLUMN compact TEXT;

-- Finds the results still without their compact form at start without reading every result.
CREATE INDEX results_without_compact ON results (id) WHERE compact IS NULL;
