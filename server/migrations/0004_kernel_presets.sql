-- Each kernel's preset in each device class (wgsweep::gallery::Preset, as JSON), kept with the class's
-- figures in the transaction of every publish and delete: a kernel's answer from every device (a user's
-- kernel is known by the digest in its variant) is one indexed read. Classes stored before get theirs when
-- the server starts.
CREATE TABLE kernel_presets (
    kernel TEXT NOT NULL,
    parameter TEXT NOT NULL,
    class_key TEXT NOT NULL,
    preset TEXT NOT NULL,
    PRIMARY KEY (kernel, parameter, class_key)
);

-- A class's rows, replaced when its figures are made afresh.
CREATE INDEX kernel_presets_of_class ON kernel_presets (class_key);
