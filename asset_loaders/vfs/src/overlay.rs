//! Archive overlays: when several layers hold an archive of the same path, one archive
//! is served whose entries are the highest layer's, then each lower layer's entries that
//! no higher layer holds (by the container's own name lookup). It is rebuilt in memory in
//! the highest layer's container kind (an RsLi library's entries stored unpacked).

use crate::archive::{Archive, ArchiveKind};
use iron3d_formats::nres::NresWriter;
use iron3d_formats::rsli::{Method, NewEntry, RsliWriter};
use iron3d_formats::{Error, ReadOptions, Result, ResultExt};

/// The merged archive of `stack` (lowest layer first, each with its layer name).
pub(crate) fn merge(stack: &[(String, Archive)], name: &str, options: ReadOptions) -> Result<Archive> {
    let Some(((top_layer, top), _)) = stack.split_last() else {
        return Err(Error::rule("overlay_empty", format!("no layer holds archive {name}")));
    };
    let is_nres = matches!(top.kind(), ArchiveKind::Nres(_));
    for (layer, a) in stack {
        if matches!(a.kind(), ArchiveKind::Nres(_)) != is_nres {
            let kind = |nres: bool| if nres { "an NRes archive" } else { "an RsLi library" };
            return Err(Error::rule(
                "overlay_kind",
                format!(
                    "layer {top_layer} holds {}, layer {layer} {}; an archive overlay keeps its container kind",
                    kind(is_nres),
                    kind(!is_nres)
                ),
            )
            .in_file(name.to_string()));
        }
    }
    let mut nres = NresWriter::new();
    let mut rsli = RsliWriter::new(0);
    for (depth, (layer, archive)) in stack.iter().enumerate().rev() {
        let higher = &stack[depth + 1..];
        for (i, info) in archive.list().into_iter().enumerate() {
            if higher.iter().any(|(_, h)| h.find(&info.name).is_some()) {
                continue;
            }
            let data = archive.read_index(i).in_file(format!("{name} (layer {layer})"))?.into_owned();
            match archive.kind() {
                ArchiveKind::Nres(index) => {
                    if let Some(row) = index.entries().get(i) {
                        nres.add(row.type_id, [row.attr1, row.attr2, row.attr3], row.name(), data)?;
                    }
                }
                ArchiveKind::Rsli(index) => {
                    if let Some(e) = index.entries().get(i) {
                        rsli.add(NewEntry { name: e.name().to_vec(), method: Method::Stored, data });
                    }
                }
            }
        }
    }
    let bytes = if is_nres { nres.to_bytes() } else { rsli.to_bytes() }.in_file(name.to_string())?;
    Archive::from_vec(bytes, name, options)
}
