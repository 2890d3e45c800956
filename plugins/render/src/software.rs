//! Mesh batching on a software renderer. Bevy builds each frame's per-mesh data with
//! compute shaders (GPU preprocessing) when the device has them; a software rasteriser
//! (llvmpipe) runs those on the CPU as well as everything else. On a CPU device
//! [`SoftwareBatchingPlugin`] declares GPU preprocessing unavailable, so Bevy takes its
//! CPU batching path (the one it uses on OpenGL) end to end: mesh instances, render
//! phases and views then agree on direct draws.

use bevy::prelude::*;
use bevy::render::RenderApp;
use bevy::render::RenderStartup;
use bevy::render::batching::gpu_preprocessing::{GpuPreprocessingMode, GpuPreprocessingSupport};
use bevy::render::renderer::RenderAdapterInfo;

/// On a CPU device, batches meshes on the CPU instead of with compute shaders. Add it to
/// `DefaultPlugins` before `PbrPlugin` (`add_before::<PbrPlugin>`): the mesh renderer reads
/// the choice when it finishes.
pub struct SoftwareBatchingPlugin;

impl Plugin for SoftwareBatchingPlugin {
    fn build(&self, _app: &mut App) {}

    fn finish(&self, app: &mut App) {
        if !software(app.world().get_resource::<RenderAdapterInfo>()) {
            return;
        }
        let Some(render_app) = app.get_sub_app_mut(RenderApp) else { return };
        info!("software renderer: meshes are batched on the CPU");
        render_app.insert_resource(CPU_BATCHING).add_systems(
            RenderStartup,
            batch_on_the_cpu.after(bevy::render::init_gpu_resource::<GpuPreprocessingSupport>),
        );
    }
}

/// No GPU preprocessing at all.
const CPU_BATCHING: GpuPreprocessingSupport =
    GpuPreprocessingSupport { max_supported_mode: GpuPreprocessingMode::None };

/// Bevy measures the device again at render start-up; keep the choice.
fn batch_on_the_cpu(mut support: ResMut<GpuPreprocessingSupport>) {
    *support = CPU_BATCHING;
}

/// True when the renderer is a software rasteriser.
pub(crate) fn software(adapter: Option<&RenderAdapterInfo>) -> bool {
    adapter.is_some_and(|a| a.device_type == wgpu_types::DeviceType::Cpu)
}
