//! zlib (RFC 1950) compression, as share links and the page's history keep their payloads. Natively
//! miniz_oxide, done in place; in the page the browser's own `CompressionStream("deflate")`, so that no
//! deflate implementation is downloaded with the page (about 15 KB gzipped).

/// `bytes`, compressed.
pub async fn compress(bytes: &[u8]) -> Vec<u8> {
    #[cfg(not(target_arch = "wasm32"))]
    return miniz_oxide::deflate::compress_to_vec_zlib(bytes, 10);
    #[cfg(target_arch = "wasm32")]
    {
        let stream = page::Transform::compression().expect("every browser with WebGPU has CompressionStream");
        page::through(bytes, &stream, usize::MAX).await.expect("compressing bytes in memory cannot fail")
    }
}

/// Why bytes did not decompress.
#[derive(Debug, Clone, PartialEq)]
pub enum Inflate {
    /// Not zlib, or cut short: what the decompressor said.
    Damaged(String),
    /// More than the limit once decompressed: decompressing stopped there (a crafted link must not make the
    /// page allocate without bound).
    TooLarge,
}

/// `bytes` decompressed, or why not.
pub async fn decompress(bytes: &[u8], limit: usize) -> Result<Vec<u8>, Inflate> {
    #[cfg(not(target_arch = "wasm32"))]
    return miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(bytes, limit).map_err(|e| match e.status {
        miniz_oxide::inflate::TINFLStatus::HasMoreOutput => Inflate::TooLarge,
        _ => Inflate::Damaged(e.to_string()),
    });
    #[cfg(target_arch = "wasm32")]
    {
        let stream = page::Transform::decompression().map_err(|e| Inflate::Damaged(page::message(&e)))?;
        page::through(bytes, &stream, limit).await
    }
}

#[cfg(target_arch = "wasm32")]
mod page {
    use js_sys::{Reflect, Uint8Array};
    use wasm_bindgen::prelude::wasm_bindgen;
    use wasm_bindgen::{JsCast, JsValue};
    use wasm_bindgen_futures::JsFuture;

    // web-sys has these streams behind its unstable APIs; every browser with WebGPU has them.
    #[wasm_bindgen]
    extern "C" {
        /// A `CompressionStream` or a `DecompressionStream`: a transform stream's two ends.
        pub type Transform;
        #[wasm_bindgen(catch, constructor, js_class = "CompressionStream")]
        fn compression_of(format: &str) -> Result<Transform, JsValue>;
        #[wasm_bindgen(catch, constructor, js_class = "DecompressionStream")]
        fn decompression_of(format: &str) -> Result<Transform, JsValue>;
        #[wasm_bindgen(method, getter)]
        fn readable(this: &Transform) -> web_sys::ReadableStream;
        #[wasm_bindgen(method, getter)]
        fn writable(this: &Transform) -> web_sys::WritableStream;
    }

    impl Transform {
        /// zlib's format is what the streams call "deflate".
        pub fn compression() -> Result<Transform, JsValue> {
            Transform::compression_of("deflate")
        }

        pub fn decompression() -> Result<Transform, JsValue> {
            Transform::decompression_of("deflate")
        }
    }

    /// `bytes` through a transform stream, read a chunk at a time: at most `limit` bytes of what comes out.
    pub async fn through(bytes: &[u8], transform: &Transform, limit: usize) -> Result<Vec<u8>, super::Inflate> {
        let damaged = |e: JsValue| super::Inflate::Damaged(message(&e));
        let parts = js_sys::Array::of1(&Uint8Array::from(bytes));
        let blob = web_sys::Blob::new_with_u8_array_sequence(&parts).map_err(damaged)?;
        let pair = web_sys::ReadableWritablePair::new(&transform.readable(), &transform.writable());
        let reader = web_sys::ReadableStreamDefaultReader::new(&blob.stream().pipe_through(&pair)).map_err(damaged)?;
        let mut out = Vec::new();
        loop {
            let chunk = JsFuture::from(reader.read()).await.map_err(damaged)?;
            if Reflect::get(&chunk, &"done".into()).is_ok_and(|done| done.is_truthy()) {
                return Ok(out);
            }
            let value: Uint8Array = Reflect::get(&chunk, &"value".into()).map_err(damaged)?.unchecked_into();
            if out.len() + value.length() as usize > limit {
                let _ = reader.cancel();
                return Err(super::Inflate::TooLarge);
            }
            out.extend(value.to_vec());
        }
    }

    /// What the browser says went wrong: an Error's message, or the value as it prints.
    pub fn message(error: &JsValue) -> String {
        match error.dyn_ref::<js_sys::Error>() {
            Some(error) => String::from(error.message()),
            None => format!("{error:?}"),
        }
    }
}
