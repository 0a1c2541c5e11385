//! The one build driver. `cargo xtask <command>`:
//!
//! - `setup`: install what the build needs (the wasm32-unknown-unknown target,
//!   and the pinned nightly toolchain with `rust-src` the component is built with).
//! - `build`: build the component, zero imports, to `target/mcp-errors.wasm`
//!   (its core module through Binaryen's `wasm-opt`, from npm).
//! - `test`:  build, then run every test suite (Rust, wasmtime harness, Node),
//!   `cargo fmt --check` and clippy.
//! - `eval`:  score `classify` and `parse` on the evaluation corpus (`eval/`),
//!   leave-one-provider-out and sealed, and redaction on the secrets corpus;
//!   fails below `eval/baseline.json` (`--record` raises it, `--misses`
//!   lists the open corpus's misses).
//! - `demo`:  build, classify and render the example errors, then run an MCP
//!   server and client (Node) whose tools fail.
//! - `playground`: build, then serve the playground (the component in a
//!   static page) on http://127.0.0.1:8000.
//! - `version [NEW]`: print the version (and fail if a file disagrees), or
//!   write NEW into every file that carries it (`Cargo.toml` is the source).
//!
//! Each command installs what it needs first, so a fresh clone needs nothing
//! but rustup, cargo, Node (and Python for the tests).

mod eval;
mod secrets;

use std::error::Error;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub(crate) type Result<T> = std::result::Result<T, Box<dyn Error>>;

const WASM_TARGET: &str = "wasm32-unknown-unknown";
/// The toolchain the component is built with: a pinned nightly, for the
/// standard library rebuilt for size (`-Z build-std`, with its
/// `optimize_for_size` feature) and panics that trap at
/// once (`-C panic=immediate-abort`), without their message formatting: the
/// component is 11 KB gzipped smaller than with stable's prebuilt standard
/// library (BENCHMARKS.md). Everything else builds with stable.
const WASM_TOOLCHAIN: &str = "nightly-2026-05-20";
const COMPONENT_CRATE: &str = "mcp-errors-component";
/// The component's size budget in bytes (issue 32: 400 000 bytes, 160 KB
/// gzipped), checked by `cargo xtask test`.
const COMPONENT_BUDGET: u64 = 400_000;
const COMPONENT_GZIP_BUDGET: u64 = 160_000;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("setup") => setup(),
        Some("build") => build().map(|_| ()),
        Some("test") => test(),
        Some("eval") => eval::eval(&args[1..]),
        Some("demo") => demo(),
        Some("playground") => playground(),
        Some("version") => version(args.get(1).map(String::as_str)),
        _ => {
            eprintln!("usage: cargo xtask <setup|build|test|eval [--record|--misses]|demo|playground|version [NEW]>");
            std::process::exit(2);
        }
    };
    if let Err(e) = result {
        eprintln!("xtask: error: {e}");
        std::process::exit(1);
    }
}

pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the workspace root")
        .to_path_buf()
}

/// The path of the built component.
fn component_path() -> PathBuf {
    root().join("target").join("mcp-errors.wasm")
}

fn cargo() -> Command {
    let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    c.current_dir(root());
    c
}

fn run(cmd: &mut Command) -> Result<()> {
    eprintln!("xtask: running {cmd:?}");
    let status = cmd
        .status()
        .map_err(|e| format!("cannot start {cmd:?}: {e}"))?;
    if !status.success() {
        return Err(format!("{cmd:?} failed with {status}").into());
    }
    Ok(())
}

fn step(title: &str) {
    eprintln!("\n=== {title} ===");
}

/// Install the wasm target when it is missing.
fn setup() -> Result<()> {
    let out = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .current_dir(root())
        .output()
        .map_err(|e| format!("rustup is required (https://rustup.rs): {e}"))?;
    let installed = String::from_utf8_lossy(&out.stdout);
    if !installed.lines().any(|l| l.trim() == WASM_TARGET) {
        step(&format!("installing the {WASM_TARGET} target"));
        run(Command::new("rustup")
            .args(["target", "add", WASM_TARGET])
            .current_dir(root()))?;
    }
    // The component's toolchain, with the standard library's source.
    let sources = Command::new("rustup")
        .args([
            "component",
            "list",
            "--installed",
            "--toolchain",
            WASM_TOOLCHAIN,
        ])
        .current_dir(root())
        .output()
        .map_err(|e| format!("rustup is required (https://rustup.rs): {e}"))?;
    let installed = String::from_utf8_lossy(&sources.stdout);
    if !sources.status.success() || !installed.lines().any(|l| l.trim() == "rust-src") {
        step(&format!(
            "installing the {WASM_TOOLCHAIN} toolchain with rust-src"
        ));
        run(Command::new("rustup")
            .args([
                "toolchain",
                "install",
                WASM_TOOLCHAIN,
                "--profile",
                "minimal",
            ])
            .args(["--component", "rust-src"])
            .current_dir(root()))?;
    }
    Ok(())
}

/// Build the core module for wasm32-unknown-unknown and turn it into a component.
fn build() -> Result<PathBuf> {
    setup()?;
    step("building the component");
    let component = componentize(&[], None)?;
    let out = component_path();
    std::fs::write(&out, &component).map_err(|e| format!("writing {}: {e}", out.display()))?;
    // The Python package embeds the component.
    let py = python_package_dir().join("src/mcp_errors/mcp_errors.wasm");
    std::fs::write(&py, &component).map_err(|e| format!("writing {}: {e}", py.display()))?;
    // The Go module embeds the optimized core module (a Go test fails when it differs).
    let core = root()
        .join("target")
        .join(WASM_TARGET)
        .join("wasm")
        .join("mcp_errors_component.opt.wasm");
    let go = root().join("go").join("core.wasm");
    std::fs::copy(&core, &go).map_err(|e| format!("writing {}: {e}", go.display()))?;
    eprintln!(
        "xtask: wrote {} ({} bytes, 0 imports)",
        out.display(),
        component.len()
    );
    Ok(out)
}

/// The test-only component whose `"mcp-errors: trap now"` input traps, for
/// testing the hosts' wrappers against a real trap.
fn build_trap_component() -> Result<PathBuf> {
    step("building the test-only trapping component");
    let component = componentize(&["--features", "test-trap"], Some("trap"))?;
    let out = root().join("target").join("mcp-errors-trap.wasm");
    std::fs::write(&out, &component).map_err(|e| format!("writing {}: {e}", out.display()))?;
    Ok(out)
}

/// Build the component crate (a variant in its own target subdirectory) with
/// the `wasm` profile and componentize it; it must import nothing.
fn componentize(features: &[&str], variant: Option<&str>) -> Result<Vec<u8>> {
    let target_dir = match variant {
        None => root().join("target"),
        Some(v) => root().join("target").join(v),
    };
    // `rustup run` picks the toolchain whatever `RUSTUP_TOOLCHAIN` the outer
    // cargo passed on; the flags apply to the target only (not build scripts).
    run(Command::new("rustup")
        .args(["run", WASM_TOOLCHAIN, "cargo", "build"])
        .args(["-Z", "build-std=std,panic_abort"])
        // The standard library's own size-over-speed choices (smaller
        // formatting and sorting code): 487 bytes gzipped.
        .args(["-Z", "build-std-features=optimize_for_size"])
        .args(["--package", COMPONENT_CRATE, "--target", WASM_TARGET])
        .args(["--profile", "wasm"])
        .args(features)
        .arg("--target-dir")
        .arg(&target_dir)
        .env("RUSTFLAGS", "-Zunstable-options -Cpanic=immediate-abort")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("RUSTC")
        .env_remove("RUSTDOC")
        .current_dir(root()))?;
    let module_path = target_dir
        .join(WASM_TARGET)
        .join("wasm")
        .join("mcp_errors_component.wasm");
    let module = optimize(&module_path)?;
    let component = wit_component::ComponentEncoder::default()
        .module(&module)
        .map_err(|e| format!("componentizing: {e:#}"))?
        .validate(true)
        .encode()
        .map_err(|e| format!("componentizing: {e:#}"))?;
    let component = without_debug_sections(&component)?;
    let imports = component_imports(&component)?;
    if !imports.is_empty() {
        return Err(format!(
            "the component must import nothing, but imports: {}",
            imports.join(", ")
        )
        .into());
    }
    Ok(component)
}

/// The core module after Binaryen's `wasm-opt -Oz --converge` (the
/// `binaryen` package pinned in `npm/package.json`, a WebAssembly build run by
/// Node): `--converge` repeats the passes until the module stops shrinking.
/// `-Oz` rather than `-O3` since 2026-11-27: 115 bytes gzipped smaller, for a
/// few per cent more instructions per call (`renderJson` stays near 7.5 µs;
/// BENCHMARKS.md), so the knowledge the verdict gained fits the budget.
/// `--low-memory-unused` (since 2026-11-27, 543 bytes gzipped): Binaryen may
/// fold address arithmetic into load and store offsets, which assumes no
/// pointer below 1024; rustc's wasm32 layout puts the 1 MiB stack first,
/// growing down from 1 MiB, so only an exhausted stack would reach there.
/// Only the WebAssembly features rustc's default wasm32 target already uses
/// are enabled, so the output runs wherever the input did. Custom sections
/// (the component type wit-component reads) are kept.
fn optimize(module_path: &Path) -> Result<Vec<u8>> {
    npm_install()?;
    let out = module_path.with_extension("opt.wasm");
    run(Command::new("node")
        .arg(npm_dir().join("node_modules/binaryen/bin/wasm-opt"))
        .arg(module_path)
        .args([
            "--low-memory-unused",
            "-Oz",
            "--converge",
            "--enable-bulk-memory",
            "--enable-bulk-memory-opt",
            "--enable-sign-ext",
            "--enable-nontrapping-float-to-int",
            "--enable-mutable-globals",
            "--enable-multivalue",
            "--enable-reference-types",
            "-o",
        ])
        .arg(&out)
        .current_dir(root()))?;
    std::fs::read(&out).map_err(|e| format!("reading {}: {e}", out.display()).into())
}

/// The component without its outermost `component-name` and `producers`
/// custom sections: names for debuggers and the tools that built it, which no
/// host reads (2.9 KB, 1.3 KB gzipped, of the budget; BENCHMARKS.md).
fn without_debug_sections(bytes: &[u8]) -> Result<Vec<u8>> {
    use wasmparser::Payload;
    let mut out = bytes[..8].to_vec();
    let mut depth = 0usize;
    for payload in wasmparser::Parser::new(0).parse_all(bytes) {
        let payload = payload?;
        match &payload {
            Payload::Version { .. } => {
                depth += 1;
                continue;
            }
            Payload::End(_) => {
                depth = depth.saturating_sub(1);
                continue;
            }
            _ => {}
        }
        if depth != 1 {
            continue;
        }
        // Outermost sections only (nested modules and components are inside
        // their parent's section, copied whole with it).
        if let Some((id, range)) = payload.as_section() {
            let range = usize::try_from(range.start)?..usize::try_from(range.end)?;
            let debug = matches!(&payload, Payload::CustomSection(c)
                if c.name() == "component-name" || c.name() == "producers");
            if !debug {
                out.push(id);
                let mut len = range.end - range.start;
                loop {
                    let byte = (len & 0x7f) as u8;
                    len >>= 7;
                    out.push(if len == 0 { byte } else { byte | 0x80 });
                    if len == 0 {
                        break;
                    }
                }
                out.extend_from_slice(&bytes[range]);
            }
        }
    }
    Ok(out)
}

/// The names of the component's own (outermost) imports. Nested components
/// that wit-component emits to type the exports have imports of their own;
/// those are satisfied inside the component and do not count.
fn component_imports(bytes: &[u8]) -> Result<Vec<String>> {
    use wasmparser::Payload;
    let mut names = Vec::new();
    let mut depth = 0usize;
    for payload in wasmparser::Parser::new(0).parse_all(bytes) {
        match payload? {
            Payload::Version { .. } => depth += 1,
            Payload::End(_) => depth = depth.saturating_sub(1),
            Payload::ComponentImportSection(reader) if depth == 1 => {
                for import in reader {
                    names.push(import?.name.name.to_string());
                }
            }
            _ => {}
        }
    }
    Ok(names)
}

fn npm_dir() -> PathBuf {
    root().join("npm")
}

fn npm() -> Command {
    let mut c = Command::new("npm");
    c.current_dir(npm_dir());
    c
}

/// Build the npm package over the fresh component.
fn build_npm(wasm: &Path) -> Result<()> {
    npm_install()?;
    step("building the npm package (jco transpile + tsc)");
    run(npm().args(["run", "build"]).env("MCP_ERRORS_WASM", wasm))
}

/// Install the npm package's pinned dev dependencies (jco, Binaryen, the MCP
/// SDK, …) when the lock file changed since the last install.
fn npm_install() -> Result<()> {
    let node = Command::new("node")
        .arg("--version")
        .output()
        .map_err(|e| format!("Node.js 20 or newer is required for the npm package: {e}"))?;
    eprintln!(
        "xtask: node {}",
        String::from_utf8_lossy(&node.stdout).trim()
    );
    let marker = npm_dir().join("node_modules").join(".package-lock.json");
    let lock = npm_dir().join("package-lock.json");
    let stale = match (std::fs::metadata(&marker), std::fs::metadata(&lock)) {
        (Ok(m), Ok(l)) => m.modified()? < l.modified()?,
        _ => true,
    };
    if stale {
        // Not `npm ci`: npm 11 leaves some optional platform packages of jco
        // out of the lock file and `npm ci` then refuses it; `npm install`
        // still follows the lock.
        step("installing the npm package's dev dependencies (npm install)");
        run(npm().args(["install", "--no-audit", "--no-fund"]))?;
    }
    Ok(())
}

/// target/runtimes: the runtimes the npm package is tested in besides the
/// machine's Node (pinned in npm/test/runtimes/package.json, installed from
/// npm when that file changes), the check's files, the vectors, and the
/// package itself as `npm pack` makes it. Chromium comes from Debian.
fn runtimes_env() -> Result<PathBuf> {
    let dir = root().join("target").join("runtimes");
    let src = npm_dir().join("test").join("runtimes");
    std::fs::create_dir_all(dir.join("vectors"))?;
    let manifest = std::fs::read(src.join("package.json"))?;
    let installed = std::fs::read(dir.join("package.json")).ok();
    for file in [
        "check.mjs",
        "node.mjs",
        "worker.mjs",
        "page.mjs",
        "wrangler.toml",
    ] {
        std::fs::copy(src.join(file), dir.join(file))?;
    }
    for file in ["classify.json", "render.json", "parse.json"] {
        std::fs::copy(
            root().join("tests/vectors").join(file),
            dir.join("vectors").join(file),
        )?;
    }
    // The Workers MCP example, with the packages installed here.
    let example = npm_dir().join("examples").join("workers-mcp");
    std::fs::create_dir_all(dir.join("workers-mcp").join("src"))?;
    for file in ["wrangler.toml", "src/index.js"] {
        std::fs::copy(example.join(file), dir.join("workers-mcp").join(file))?;
    }
    if installed.as_deref() != Some(&manifest[..]) || !dir.join("node_modules").exists() {
        step("installing Node 22, Bun, Deno, wrangler and playwright-core (npm)");
        std::fs::write(dir.join("package.json"), &manifest)?;
        run(Command::new("npm")
            .args(["install", "--no-audit", "--no-fund"])
            .current_dir(&dir))?;
    }
    step("packing the npm package and installing the tarball");
    let out = Command::new("npm")
        .args(["pack", "--json", "--pack-destination"])
        .arg(&dir)
        .current_dir(npm_dir())
        .stderr(Stdio::inherit())
        .output()?;
    let text = String::from_utf8(out.stdout)?;
    let name = text
        .split("\"filename\": \"")
        .nth(1)
        .and_then(|t| t.split('"').next())
        .ok_or_else(|| format!("npm pack printed no file name: {text}"))?;
    run(Command::new("npm")
        .args(["install", "--no-save", "--no-audit", "--no-fund"])
        .arg(format!("./{name}"))
        .current_dir(&dir))?;
    if !Path::new("/usr/bin/chromium").exists() {
        step("installing Chromium (Debian's chromium package, apt-get)");
        run(Command::new("apt-get").arg("update")).map_err(|e| {
            format!("Chromium is needed for the browser test (apt-get install chromium): {e}")
        })?;
        run(Command::new("apt-get")
            .args(["install", "-y", "--no-install-recommends", "chromium"])
            .env("DEBIAN_FRONTEND", "noninteractive"))?;
    }
    Ok(dir)
}

fn python_package_dir() -> PathBuf {
    root().join("bindings").join("python")
}

/// A virtualenv in target/ with the Python package (editable) and its test
/// dependencies, pinned by bindings/python/constraints.txt.
fn python_env() -> Result<PathBuf> {
    let venv = root().join("target").join("py-venv");
    let python = venv.join("bin").join("python");
    if !python.exists() {
        step("creating a Python virtualenv (target/py-venv)");
        run(Command::new("python3")
            .args(["-m", "venv"])
            .arg(&venv)
            .current_dir(root()))
        .map_err(|e| format!("Python 3.10 or newer is required for the Python package: {e}"))?;
    }
    let marker = venv.join(".mcp-errors-installed");
    let constraints = python_package_dir().join("constraints.txt");
    let pyproject = python_package_dir().join("pyproject.toml");
    let newest = std::fs::metadata(&constraints)?
        .modified()?
        .max(std::fs::metadata(&pyproject)?.modified()?);
    let stale = match std::fs::metadata(&marker) {
        Ok(m) => m.modified()? < newest,
        Err(_) => true,
    };
    if stale {
        step("installing the Python package and its test dependencies (pip)");
        run(pip_install(&python)
            .arg("-c")
            .arg(&constraints)
            .arg("-e")
            .arg(format!("{}[test]", python_package_dir().display())))?;
        std::fs::write(&marker, b"")?;
    }
    Ok(python)
}

/// `python -m pip install --quiet`, run at the root, for the caller's arguments.
fn pip_install(python: &Path) -> Command {
    let mut c = Command::new(python);
    c.args([
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
    ])
    .current_dir(root());
    c
}

/// A second virtualenv, target/py-servers-venv, for the MCP servers from PyPI that the proxy is
/// tested in front of (bindings/python/servers-requirements.txt, every package pinned): apart
/// from target/py-venv, whose `mcp` is pinned for the package's own tests. Made anew when that
/// file changes.
fn python_servers_env() -> Result<PathBuf> {
    let venv = root().join("target").join("py-servers-venv");
    let python = venv.join("bin").join("python");
    let requirements = python_package_dir().join("servers-requirements.txt");
    let wanted = std::fs::read(&requirements)
        .map_err(|e| format!("reading {}: {e}", requirements.display()))?;
    let marker = venv.join(".mcp-errors-installed");
    if python.exists() && std::fs::read(&marker).ok().as_deref() == Some(&wanted[..]) {
        return Ok(python);
    }
    step(
        "installing the MCP servers the proxy is tested in front of (pip, target/py-servers-venv)",
    );
    if venv.exists() {
        std::fs::remove_dir_all(&venv)?;
    }
    run(Command::new("python3")
        .args(["-m", "venv"])
        .arg(&venv)
        .current_dir(root()))?;
    run(pip_install(&python).arg("-r").arg(&requirements))?;
    std::fs::write(&marker, &wanted)?;
    Ok(python)
}

fn test() -> Result<()> {
    let wasm = build()?;
    step("component size (under 400 000 bytes)");
    let size = std::fs::metadata(&wasm)
        .map_err(|e| format!("reading {}: {e}", wasm.display()))?
        .len();
    if size >= COMPONENT_BUDGET {
        return Err(format!(
            "the component is {size} bytes, over its budget of {COMPONENT_BUDGET} (BENCHMARKS.md)"
        )
        .into());
    }
    let gzipped = Command::new("gzip")
        .args(["-9", "-c"])
        .arg(&wasm)
        .output()
        .map_err(|e| format!("gzip is needed to measure the component: {e}"))?
        .stdout
        .len() as u64;
    if gzipped >= COMPONENT_GZIP_BUDGET {
        return Err(format!(
            "the component is {gzipped} bytes gzipped, over its budget of {COMPONENT_GZIP_BUDGET}"
        )
        .into());
    }
    eprintln!("xtask: component {size} bytes, {gzipped} gzipped");
    step("rustfmt");
    run(cargo().args(["fmt", "--all", "--check"]))?;
    step("clippy");
    run(cargo().args([
        "clippy",
        "--workspace",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ]))?;
    step("clippy (the rmcp host, --features rmcp)");
    run(cargo().args([
        "clippy",
        "--package",
        "mcp-errors",
        "--features",
        "rmcp",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ]))?;
    step("clippy (component, wasm32)");
    run(cargo().args([
        "clippy",
        "--package",
        COMPONENT_CRATE,
        "--target",
        WASM_TARGET,
        "--",
        "-D",
        "warnings",
    ]))?;
    step("rustdoc (broken links are errors)");
    run(cargo()
        .args(["doc", "--no-deps", "--package", "mcp-errors"])
        .env("RUSTDOCFLAGS", "-D warnings"))?;
    let trap = build_trap_component()?;
    step("eval: classify and parse on the evaluation corpus, redaction on the secrets corpus");
    eval::eval(&[])?;
    step("Rust tests: unit, doc, vectors, properties, wasmtime harness");
    run(cargo()
        .args(["test", "--workspace"])
        .env("MCP_ERRORS_TRAP_WASM", &trap)
        .env("MCP_ERRORS_WASM", &wasm))?;
    step("Rust host: an rmcp server and client in one process (--features rmcp), the example");
    run(cargo().args([
        "test",
        "--package",
        "mcp-errors",
        "--features",
        "rmcp",
        "--test",
        "rmcp_host",
        "--example",
        "rmcp_weather",
    ]))?;
    build_npm(&wasm)?;
    // The Python package too: the Node proxy tests run `python -m mcp_errors proxy` as well.
    let python = python_env()?;
    step("Node tests: vectors, conversions, MCP SDK end to end, CLI parity, traps, pack, the proxy in all three hosts");
    run(npm()
        .args(["test"])
        .env("MCP_ERRORS_TRAP_WASM", &trap)
        .env(
            "MCP_ERRORS_CLI",
            root().join("target").join("debug").join("mcp-errors"),
        )
        .env("MCP_ERRORS_PYTHON", &python))?;
    step("other runtimes: Node 22, Bun, Deno, Workers (wrangler dev), Chromium, and Go's digest");
    let runtimes = runtimes_env()?;
    run(Command::new("node")
        .arg(npm_dir().join("test/runtimes/run.mjs"))
        .arg(&runtimes)
        .current_dir(root()))?;
    let servers_python = python_servers_env()?;
    step("Python tests: vectors, conversions, MCP SDK end to end, CLI parity, threads, traps, the proxy in front of PyPI's servers");
    run(Command::new(&python)
        .args(["-m", "pytest", "-q", "bindings/python/tests"])
        .env("MCP_ERRORS_TRAP_WASM", &trap)
        .env("MCP_ERRORS_SERVERS_PYTHON", &servers_python)
        .env(
            "MCP_ERRORS_CLI",
            root().join("target").join("debug").join("mcp-errors"),
        )
        .current_dir(root()))?;
    step("Go tests: vectors, conversions, go-sdk and mcp-go end to end, CLI parity, traps");
    let trap_core = root()
        .join("target")
        .join("trap")
        .join(WASM_TARGET)
        .join("wasm")
        .join("mcp_errors_component.opt.wasm");
    run(Command::new("go")
        .args(["test", "-count=1", "./..."])
        .current_dir(root().join("go"))
        .env("MCP_ERRORS_TRAP_WASM", &trap_core)
        .env(
            "MCP_ERRORS_CLI",
            root().join("target").join("debug").join("mcp-errors"),
        ))
    .map_err(|e| format!("Go 1.25 or newer is required for the Go module: {e}"))?;
    step("all test suites passed");
    Ok(())
}

fn demo() -> Result<()> {
    let wasm = build()?;
    step("building the CLI");
    run(cargo().args(["build", "--release", "--bin", "mcp-errors"]))?;
    let cli = root().join("target").join("release").join("mcp-errors");
    let examples = std::fs::read_to_string(root().join("examples").join("raw-errors.jsonl"))?;
    step("classify, then render as an MCP tool result (isError: true)");
    for line in examples.lines().filter(|l| !l.trim().is_empty()) {
        let normalized = pipe(&cli, &["classify", "--now", "2025-10-27T14:32:15Z"], line)?;
        let rendered = pipe(
            &cli,
            &[
                "render",
                "--now",
                "2025-10-27T14:32:15Z",
                "--id",
                "err_demo",
            ],
            line,
        )?;
        println!("raw error   {line}");
        println!("normalized  {normalized}");
        println!("tool result {rendered}\n");
    }
    println!(
        "The same core runs as a zero-import WebAssembly component: {}\n",
        wasm.display()
    );
    build_npm(&wasm)?;
    step("an MCP server (Node, @modelcontextprotocol/sdk) whose tools fail, called by a client");
    run(Command::new("node")
        .arg("examples/demo.mjs")
        .current_dir(npm_dir()))?;
    Ok(())
}

/// Build the component and the npm package, then build and serve the playground.
fn playground() -> Result<()> {
    let wasm = build()?;
    build_npm(&wasm)?;
    step("the playground: http://127.0.0.1:8000/ (Ctrl-C stops it)");
    run(Command::new("node")
        .arg(root().join("playground").join("build.mjs"))
        .arg("--serve")
        .current_dir(root()))
}

/// Run the CLI with one input line and return its one output line.
fn pipe(cli: &Path, args: &[&str], input: &str) -> Result<String> {
    use std::io::Write;
    let mut child = Command::new(cli)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", cli.display()))?;
    child
        .stdin
        .take()
        .ok_or("no stdin")?
        .write_all(format!("{input}\n").as_bytes())?;
    let out = child.wait_with_output()?;
    Ok(String::from_utf8(out.stdout)?.trim_end().to_string())
}

/// The files that carry the version: each with the text before it on its
/// line and how many times it appears there. `Cargo.toml`'s workspace
/// version is the source: `cargo xtask version NEW` writes it everywhere,
/// and `tests/docs.rs` fails when a file disagrees.
const VERSIONED: &[(&str, &str, usize)] = &[
    ("Cargo.toml", "version = \"", 1),
    ("npm/package.json", "\"version\": \"", 1),
    ("npm/package-lock.json", "\"version\": \"", 2),
    ("bindings/python/pyproject.toml", "version = \"", 1),
    ("wit/mcp-errors.wit", "package mcp-errors:core@", 1),
    (
        "bindings/python/src/mcp_errors/_engine.py",
        "_API = \"mcp-errors:core/api@",
        1,
    ),
];

/// The version after the first `lead` in `text`.
fn version_in(text: &str, lead: &str) -> Option<String> {
    let rest = &text[text.find(lead)? + lead.len()..];
    let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-'))?;
    Some(rest[..end].to_string())
}

/// `cargo xtask version`: print the version; fail if a file disagrees.
/// `cargo xtask version NEW`: write NEW into every file that carries it.
fn version(new: Option<&str>) -> Result<()> {
    if let Some(v) = new {
        let core = v.split('-').next().unwrap_or("");
        let valid = core.split('.').count() == 3
            && core
                .split('.')
                .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
            && v.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-');
        if !valid {
            return Err(format!("not a version: {v:?} (MAJOR.MINOR.PATCH[-PRE])").into());
        }
    }
    let mut found = Vec::new();
    for &(file, lead, times) in VERSIONED {
        let path = root().join(file);
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{file}: {e}"))?;
        let old =
            version_in(&text, lead).ok_or_else(|| format!("{file}: no version after {lead:?}"))?;
        if let Some(v) = new {
            let from = format!("{lead}{old}");
            let text = text.replacen(&from, &format!("{lead}{v}"), times);
            std::fs::write(&path, text).map_err(|e| format!("{file}: {e}"))?;
        }
        found.push((file, old));
    }
    if let Some(v) = new {
        println!("version {v}: written to {} files", found.len());
        return Ok(());
    }
    let want = found[0].1.clone();
    let drift: Vec<String> = found
        .iter()
        .filter(|(_, v)| *v != want)
        .map(|(f, v)| format!("{f} says {v}"))
        .collect();
    if !drift.is_empty() {
        return Err(format!("Cargo.toml says {want}, but {}", drift.join(", ")).into());
    }
    println!("{want}");
    Ok(())
}
