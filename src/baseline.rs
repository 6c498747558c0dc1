//! Named baselines for comparisons: a result saved under a name in a folder (`.wgsweep/baselines/` for
//! `wgsweep compare --save-baseline`), as criterion keeps its baselines, so that a later run is compared with
//! it by name.

use std::path::{Path, PathBuf};

use crate::analysis;
use crate::result::RunResult;

/// Where `wgsweep compare` keeps its baselines, relative to the folder it runs in.
pub const FOLDER: &str = ".wgsweep/baselines";

/// A folder of baselines, one result file a name.
#[derive(Clone, Debug)]
pub struct Baselines {
    folder: PathBuf,
}

impl Baselines {
    pub fn in_folder(folder: impl Into<PathBuf>) -> Baselines {
        Baselines { folder: folder.into() }
    }

    /// The file a baseline's name stands for; a name is letters, digits, '-', '_' and '.', not starting with
    /// '.', so that it can name no file outside the folder.
    pub fn path(&self, name: &str) -> Result<PathBuf, String> {
        let fine = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
        if !fine || name.starts_with('.') {
            return Err(format!("a baseline's name is letters, digits, '-', '_' and '.', not `{name}`"));
        }
        Ok(self.folder.join(format!("{name}.json")))
    }

    /// Saves `result` as the baseline `name` (replacing one of that name), and says where.
    pub fn save(&self, name: &str, result: &RunResult) -> Result<PathBuf, String> {
        let path = self.path(name)?;
        std::fs::create_dir_all(&self.folder).map_err(|e| format!("could not make {}: {e}", self.folder.display()))?;
        std::fs::write(&path, result.to_json()).map_err(|e| format!("could not write {}: {e}", path.display()))?;
        Ok(path)
    }

    /// The result saved as the baseline `name`.
    pub fn load(&self, name: &str) -> Result<RunResult, String> {
        let path = self.path(name)?;
        let text = std::fs::read_to_string(&path).map_err(|e| {
            format!("no baseline `{name}` ({}: {e}); save one with --save-baseline {name}", path.display())
        })?;
        analysis::read_json(&text).map_err(|e| format!("{}: {e}", Path::new(&path).display()))
    }
}
