//! The learned model: one strength (gamma) per feature, and its file format.
//!
//! A move's strength is the product of the gammas of its features
//! (Bradley-Terry "teams", Coulom 2007); its probability is its strength over
//! the sum of all moves' strengths.
//!
//! # File format (version 1, little endian)
//! ```text
//! b"KSPAT" 0x01 0x00 0x00       magic and version
//! u32 fixed                      fixed feature ids (groups and 3x3 shapes)
//! u32 pat3                       3x3 shapes up to symmetry
//! u32 large                      large shapes
//! u8 n, n x u8                   LARGE_SIZES the keys were made with
//! fixed x f32                    gammas of the fixed ids
//! large x (u64 key, f32 gamma)   large shapes, keys strictly increasing
//! u64                            FNV-1a 64 of all the bytes before
//! ```

use super::features::{fixed_count, pattern3_count, Context, MoveFeatures, LARGE_SIZES};
use crate::board::Point;
use fxhash::FxHashMap;
use std::fmt;
use std::sync::{Arc, OnceLock};

const MAGIC: &[u8; 8] = b"KSPAT\x01\x00\x00";

/// The weights kosumi ships, made by `kosumi train-patterns`.
static EMBEDDED: &[u8] = include_bytes!("weights.bin");

/// Why a weights file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightsError(pub String);

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad pattern weights: {}", self.0)
    }
}

impl std::error::Error for WeightsError {}

fn bad(msg: impl Into<String>) -> WeightsError {
    WeightsError(msg.into())
}

/// Feature strengths: the fixed ids, then the large shapes.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    gamma: Vec<f32>,
    /// Large shape key to feature id.
    large: FxHashMap<u64, u32>,
    /// Keys by id minus the fixed count.
    keys: Vec<u64>,
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Reads little-endian numbers off a byte slice.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], WeightsError> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| bad("file is truncated"))?;
        let s = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(s)
    }
    fn u8(&mut self) -> Result<u8, WeightsError> {
        Ok(self.take(1)?[0])
    }
    fn u32(&mut self) -> Result<u32, WeightsError> {
        Ok(u32::from_le_bytes(
            self.take(4)?.try_into().expect("4 bytes"),
        ))
    }
    fn u64(&mut self) -> Result<u64, WeightsError> {
        Ok(u64::from_le_bytes(
            self.take(8)?.try_into().expect("8 bytes"),
        ))
    }
    fn gamma(&mut self) -> Result<f32, WeightsError> {
        let g = f32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes"));
        if g.is_finite() && g > 0.0 {
            Ok(g)
        } else {
            Err(bad(format!("gamma {g} is not a positive number")))
        }
    }
}

impl Model {
    /// A model with every gamma 1 and these large shape keys.
    pub fn uniform(large_keys: &[u64]) -> Model {
        let mut keys = large_keys.to_vec();
        keys.sort_unstable();
        keys.dedup();
        let fixed = fixed_count();
        let large = keys
            .iter()
            .enumerate()
            .map(|(i, &k)| (k, (fixed + i) as u32))
            .collect();
        Model {
            gamma: vec![1.0; fixed + keys.len()],
            large,
            keys,
        }
    }

    /// The built-in weights (parsed once).
    pub fn embedded() -> Arc<Model> {
        static MODEL: OnceLock<Arc<Model>> = OnceLock::new();
        MODEL
            .get_or_init(|| {
                Arc::new(Model::from_bytes(EMBEDDED).expect("the shipped weights file is valid"))
            })
            .clone()
    }

    /// Reads a weights file.
    pub fn load(path: &std::path::Path) -> Result<Model, WeightsError> {
        let bytes = std::fs::read(path)
            .map_err(|e| WeightsError(format!("cannot read {}: {e}", path.display())))?;
        Model::from_bytes(&bytes).map_err(|e| WeightsError(format!("{}: {}", path.display(), e.0)))
    }

    /// Parses the file format (see the module docs).
    pub fn from_bytes(bytes: &[u8]) -> Result<Model, WeightsError> {
        if bytes.len() < MAGIC.len() + 8 || &bytes[..5] != b"KSPAT" {
            return Err(bad("not a kosumi pattern weights file"));
        }
        if bytes[5] != MAGIC[5] {
            return Err(bad(format!(
                "format version {} (this kosumi reads version {})",
                bytes[5], MAGIC[5]
            )));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        if fnv1a(body) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
            return Err(bad("checksum mismatch (file damaged?)"));
        }
        let mut r = Reader {
            bytes: body,
            pos: MAGIC.len(),
        };
        let fixed = r.u32()? as usize;
        let pat3 = r.u32()? as usize;
        let large = r.u32()? as usize;
        if fixed != fixed_count() || pat3 != pattern3_count() {
            return Err(bad(format!(
                "made for {fixed} fixed features and {pat3} 3x3 shapes, this kosumi has {} and {}",
                fixed_count(),
                pattern3_count()
            )));
        }
        let n = r.u8()? as usize;
        if r.take(n)? != LARGE_SIZES {
            return Err(bad("large shape sizes differ from this kosumi's"));
        }
        if body.len() - r.pos != fixed * 4 + large * 12 {
            return Err(bad(format!(
                "expected {} bytes of weights, found {}",
                fixed * 4 + large * 12,
                body.len() - r.pos
            )));
        }
        let mut gamma = Vec::with_capacity(fixed + large);
        for _ in 0..fixed {
            gamma.push(r.gamma()?);
        }
        let mut keys = Vec::with_capacity(large);
        let mut map = FxHashMap::default();
        map.reserve(large);
        for i in 0..large {
            let key = r.u64()?;
            if keys.last().is_some_and(|&k| k >= key) {
                return Err(bad("large shape keys are not strictly increasing"));
            }
            keys.push(key);
            map.insert(key, (fixed + i) as u32);
            gamma.push(r.gamma()?);
        }
        Ok(Model {
            gamma,
            large: map,
            keys,
        })
    }

    /// The file format (see the module docs).
    pub fn to_bytes(&self) -> Vec<u8> {
        let fixed = fixed_count();
        let mut out = Vec::with_capacity(32 + self.gamma.len() * 12);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(fixed as u32).to_le_bytes());
        out.extend_from_slice(&(pattern3_count() as u32).to_le_bytes());
        out.extend_from_slice(&(self.keys.len() as u32).to_le_bytes());
        out.push(LARGE_SIZES.len() as u8);
        out.extend_from_slice(&LARGE_SIZES);
        for g in &self.gamma[..fixed] {
            out.extend_from_slice(&g.to_le_bytes());
        }
        for (i, k) in self.keys.iter().enumerate() {
            out.extend_from_slice(&k.to_le_bytes());
            out.extend_from_slice(&self.gamma[fixed + i].to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Number of features (fixed and large).
    pub fn len(&self) -> usize {
        self.gamma.len()
    }

    /// Whether there are no features (never: the fixed ones always exist).
    pub fn is_empty(&self) -> bool {
        self.gamma.is_empty()
    }

    /// Number of large shapes.
    pub fn large_count(&self) -> usize {
        self.keys.len()
    }

    /// The gammas by feature id.
    pub fn gammas(&self) -> &[f32] {
        &self.gamma
    }

    /// Sets the gammas (as many as [`Model::len`]; others are ignored).
    pub fn set_gammas(&mut self, gammas: &[f64]) {
        for (g, &v) in self.gamma.iter_mut().zip(gammas) {
            *g = v as f32;
        }
    }

    /// All features of playing at `p`, with the largest known large shape
    /// (sizes are tried smallest first, up to the first unknown one: the
    /// shapes kept are those seen often enough, so a larger shape is never
    /// known when a smaller one is not).
    pub fn features(&self, ctx: &Context, p: Point) -> MoveFeatures {
        let mut f = ctx.features(p);
        if !self.large.is_empty() {
            let mut largest = None;
            ctx.each_large_key(p, |key| match self.large.get(&key) {
                Some(&id) => {
                    largest = Some(id);
                    true
                }
                None => false,
            });
            if let Some(id) = largest {
                f.push(id);
            }
        }
        f
    }

    /// The strength of a move with these features.
    #[inline]
    pub fn strength(&self, f: &MoveFeatures) -> f32 {
        f.ids().iter().map(|&id| self.gamma[id as usize]).product()
    }
}
