//! Rendered-frame check: runs the game on the demo mission under a virtual X server,
//! captures a frame and checks what a player would see with image statistics.
//! Needs Xvfb and a Vulkan driver, so it is ignored by default; `.ci/run` runs it with
//! `cargo test --workspace --profile ci --test render -- --ignored`.

use std::path::Path;
use std::process::Command;

/// Mean and standard deviation of each RGB channel over a rectangle (fractions of
/// the image: x0, y0, x1, y1).
fn region_stats(rgb: &[u8], width: usize, height: usize, [x0, y0, x1, y1]: [f32; 4]) -> ([f32; 3], [f32; 3]) {
    let (xa, xb) = ((x0 * width as f32) as usize, (x1 * width as f32) as usize);
    let (ya, yb) = ((y0 * height as f32) as usize, (y1 * height as f32) as usize);
    let mut sum = [0f64; 3];
    let mut sq = [0f64; 3];
    let mut n = 0f64;
    for y in ya..yb {
        for x in xa..xb {
            let p = &rgb[(y * width + x) * 3..][..3];
            for c in 0..3 {
                sum[c] += f64::from(p[c]);
                sq[c] += f64::from(p[c]) * f64::from(p[c]);
            }
            n += 1.0;
        }
    }
    let mean = sum.map(|s| (s / n) as f32);
    let sd = [0, 1, 2].map(|c| ((sq[c] / n - (sum[c] / n).powi(2)).max(0.0).sqrt()) as f32);
    (mean, sd)
}

/// The share of the pixels of a rectangle (as in [`region_stats`]) that are clearly
/// warmer (redder) than they are blue.
fn warm_share(rgb: &[u8], width: usize, height: usize, [x0, y0, x1, y1]: [f32; 4]) -> f32 {
    let (xa, xb) = ((x0 * width as f32) as usize, (x1 * width as f32) as usize);
    let (ya, yb) = ((y0 * height as f32) as usize, (y1 * height as f32) as usize);
    let pixels = (ya..yb).flat_map(|y| (xa..xb).map(move |x| &rgb[(y * width + x) * 3..][..3]));
    let warm = pixels.clone().filter(|p| i16::from(p[0]) - i16::from(p[2]) > 15).count();
    warm as f32 / pixels.count().max(1) as f32
}

fn load_rgb(path: &Path) -> (Vec<u8>, usize, usize) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).expect("screenshot exists")));
    let mut reader = decoder.read_info().expect("png header");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("png frame");
    let channels = info.color_type.samples();
    let rgb: Vec<u8> = buf[..info.buffer_size()].chunks(channels).flat_map(|p| [p[0], p[1], p[2]]).collect();
    (rgb, info.width as usize, info.height as usize)
}

#[test]
#[ignore = "needs Xvfb and a Vulkan driver; run by .ci/run"]
fn demo_mission_shows_terrain_and_models() {
    let shot = std::env::temp_dir().join(format!("iron3d-render-{}.png", std::process::id()));
    let run = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x720x24"])
        .arg(env!("CARGO_BIN_EXE_iron3d"))
        // The strategic view: the ground seen from above, whenever the frame is taken (on
        // foot the hero's first-person view comes up once the mission is in the game).
        .args(["--mission", "tutorial.01", "--strategic-start", "on", "--exit-after-frames", "90", "--screenshot"])
        .arg(&shot)
        .output()
        .expect("xvfb-run runs");
    let log = String::from_utf8_lossy(&run.stdout).into_owned() + &String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "the game exits cleanly:\n{log}");
    assert!(log.contains("Loading -> InGame"), "the mission loaded before the capture:\n{log}");
    let ready = log
        .lines()
        .find(|l| l.contains("models ready:"))
        .unwrap_or_else(|| panic!("models never became ready:\n{log}"));
    assert!(ready.contains("(0 failed") && !ready.contains("ready: 0 instances"), "{ready}");
    assert!(!ready.contains("(0 lightmapped)"), "the demo's buildings carry lightmaps: {ready}");
    let terrain =
        log.lines().find(|l| l.contains("terrain drawn:")).unwrap_or_else(|| panic!("terrain never drawn:\n{log}"));
    assert!(terrain.contains("in 3 overlays"), "shore, tracks and scorched ground are drawn: {terrain}");
    assert!(log.contains("weather from MISSIONS/tutorial.01/weather.ron"), "the storm schedule is read:\n{log}");
    if log.contains("only supports software rendering") {
        assert!(log.contains("meshes are batched on the CPU"), "a software renderer batches on the CPU:\n{log}");
    }
    let (rgb, w, h) = load_rgb(&shot);
    let (_, whole_sd) = region_stats(&rgb, w, h, [0.0, 0.0, 1.0, 1.0]);
    assert!(whole_sd.iter().any(|&s| s > 12.0), "the frame is not blank: {whole_sd:?}");
    // The lower middle of the frame is ground seen from above: lit terrain, not the
    // clear colour, with texture and objects making it vary.
    let (ground_mean, ground_sd) = region_stats(&rgb, w, h, [0.3, 0.55, 0.7, 0.95]);
    assert!(ground_mean.iter().sum::<f32>() > 60.0, "terrain is lit: {ground_mean:?}");
    assert!(ground_sd.iter().any(|&s| s > 6.0), "terrain and models vary: {ground_sd:?}");
    // Bare brown earth shows there: the opaque base layers are drawn, not only the
    // blended overlays over the clear colour (what a mis-set batching path gives).
    let earth = warm_share(&rgb, w, h, [0.3, 0.55, 0.7, 0.95]);
    assert!(earth > 0.05, "the terrain's base layers are drawn: {earth}");
    let _ = std::fs::remove_file(shot);
}
