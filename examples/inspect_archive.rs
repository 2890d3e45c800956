//! Lists the entries of an NRes or RsLi archive with the `iron3d_vfs` API:
//! `cargo run --example inspect_archive -- path/to/archive.rlb`

fn main() -> anyhow::Result<()> {
    let path = std::env::args().nth(1).ok_or_else(|| anyhow::anyhow!("usage: inspect_archive FILE"))?;
    let archive = iron3d_vfs::Archive::open(path.as_ref(), &path, iron3d_formats::ReadOptions::compatible())?;
    for e in archive.list() {
        println!("{:<36} {:>10} bytes  {}", e.name, e.size, e.method);
    }
    Ok(())
}
