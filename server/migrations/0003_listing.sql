-- A device's results are listed from this index alone: it holds every column the list shows, so a list of
-- 1 000 reads some 50 index pages instead of 1 000 rows, each on a page of its own (rows hold bodies), from
-- a database larger than memory. Labels are at most wgsweep::gallery::MAX_LABEL_CHARS characters long from
-- now on (a publish with a longer one is refused), which keeps an index entry within PostgreSQL's bound; a
-- longer label stored before is cut to that in the list, and its result's body keeps it whole.
UPDATE results SET label = substr(label, 1, 200) WHERE length(label) > 200;
DROP INDEX results_by_class;
CREATE INDEX results_listed ON results (class_key, published DESC, id, label, created, copy_gbps, fma_gflops, configurations);
