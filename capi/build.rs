//! Writes `include/morris.h` from `src/lib.rs` with cbindgen, when it changed.
//!
//! With `MORRIS_CHECK_HEADER=1` (CI) it writes nothing and fails instead when the committed
//! header differs from what the sources generate.

use std::env;
use std::fs;
use std::path::Path;

fn main() {
    let dir = env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let dir = Path::new(&dir);
    let sources = ["src/lib.rs"];
    for path in sources
        .iter()
        .chain(&["cbindgen.toml", "build.rs", "include/morris.h"])
    {
        println!("cargo:rerun-if-changed={path}");
    }
    println!("cargo:rerun-if-env-changed=MORRIS_CHECK_HEADER");
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml"))
        .unwrap_or_else(|e| panic!("capi/cbindgen.toml: {e}"));
    // The exported items all live in src/lib.rs: parsing it alone needs no `cargo metadata`.
    let mut builder = cbindgen::Builder::new().with_config(config);
    for src in sources {
        builder = builder.with_src(dir.join(src));
    }
    let bindings = builder
        .generate()
        .unwrap_or_else(|e| panic!("cbindgen cannot generate include/morris.h: {e}"));
    let mut generated = Vec::new();
    bindings.write(&mut generated);
    let header = dir.join("include/morris.h");
    let current = fs::read(&header).unwrap_or_default();
    if current == generated {
        return;
    }
    if env::var("MORRIS_CHECK_HEADER").is_ok_and(|v| !v.is_empty() && v != "0") {
        panic!(
            "capi/include/morris.h is not what capi/src/lib.rs generates: build without \
             MORRIS_CHECK_HEADER (cargo build -p morris-capi) to rewrite it, and commit it"
        );
    }
    fs::create_dir_all(dir.join("include")).expect("capi/include can be made");
    fs::write(&header, generated)
        .unwrap_or_else(|e| panic!("cannot write {}: {e}", header.display()));
}
