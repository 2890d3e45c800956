// Fast shading (see fast_shading.rs): one texture sample, the view's sun, ambient light
// (or the part's lightmap) and point and spot lights with Lambert's law, linear distance
// fog and the view's tone mapping. The light units are the PBR shader's (colours
// pre-multiplied by intensity, scaled by the view's exposure), so a matte surface looks
// the same at a fraction of the cost on a software rasteriser.

#import bevy_pbr::{
    clustered_forward as clustering,
    forward_io::VertexOutput,
    mesh_view_bindings::{view, lights, fog, clustered_lights},
    mesh_view_types::{POINT_LIGHT_FLAGS_SPOT_LIGHT_Y_NEGATIVE, POINT_LIGHT_FLAGS_AFFECTS_LIGHTMAPPED_MESH_DIFFUSE_BIT},
}
#ifdef LIGHTMAP
#import bevy_pbr::lightmap::lightmap
#endif
#ifdef VISIBILITY_RANGE_DITHER
#import bevy_pbr::pbr_functions::visibility_range_dither
#endif
#ifdef TONEMAP_IN_SHADER
#import bevy_core_pipeline::tonemapping::tone_mapping
#endif

struct FastShading {
    color: vec4<f32>,
    emissive: vec4<f32>,
    // Alpha-mask cutoff; negative: no mask.
    alpha_cutoff: f32,
    lightmap_exposure: f32,
    // 1: the colour is shown as it is (an unlit source).
    unlit: u32,
}

@group(#{MATERIAL_BIND_GROUP}) @binding(0) var<uniform> material: FastShading;
@group(#{MATERIAL_BIND_GROUP}) @binding(1) var base_texture: texture_2d<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(2) var base_sampler: sampler;

const FRAC_1_PI: f32 = 0.3183098861837907;

// Light reaching a surface of normal `n` at `p` from the view's point and spot lights
// (the camera spotlight, flashes): inverse-square falloff faded to zero at each light's
// range, a spot light's cone as PBR computes it, times 1/π as for the sun. A view shaded
// fast has one light cluster (fast_shading.rs), so every fragment reads the same list
// and none pays for finding its cluster. At most MAX_LIGHTS are applied, spot lights
// (the camera's) first: every fragment pays for each one, and a large fight can hold
// dozens of flashes.
const MAX_LIGHTS: u32 = 8u;

fn point_and_spot(p: vec3<f32>, n: vec3<f32>) -> vec3<f32> {
    let ranges = clustering::unpack_clusterable_object_index_ranges(0u);
    let spots = ranges.first_reflection_probe_index_offset - ranges.first_spot_light_index_offset;
    let count = min(ranges.first_reflection_probe_index_offset - ranges.first_point_light_index_offset, MAX_LIGHTS);
    var sum = vec3<f32>(0.0);
    for (var k = 0u; k < count; k = k + 1u) {
        let spot = k < spots;
        let i = select(ranges.first_point_light_index_offset + k - spots, ranges.first_spot_light_index_offset + k, spot);
        let light = &clustered_lights.data[clustering::get_clusterable_object_id(i)];
#ifdef LIGHTMAP
        if ((*light).flags & POINT_LIGHT_FLAGS_AFFECTS_LIGHTMAPPED_MESH_DIFFUSE_BIT) == 0u {
            continue;
        }
#endif
        let to_light = (*light).position_radius.xyz - p;
        let d2 = max(dot(to_light, to_light), 1e-4);
        let l = to_light * inverseSqrt(d2);
        let reach = d2 * (*light).color_inverse_square_range.w;
        let fade = saturate(1.0 - reach * reach);
        var amount = fade * fade / d2 * max(dot(n, l), 0.0);
        if spot {
            // The direction is kept as x, z and the sign of y.
            let custom = (*light).light_custom_data;
            var dir = vec3<f32>(custom.x, 0.0, custom.y);
            dir.y = sqrt(max(0.0, 1.0 - dir.x * dir.x - dir.z * dir.z));
            if ((*light).flags & POINT_LIGHT_FLAGS_SPOT_LIGHT_Y_NEGATIVE) != 0u {
                dir.y = -dir.y;
            }
            let cone = saturate(dot(-dir, l) * custom.z + custom.w);
            amount = amount * cone * cone;
        }
        sum = sum + (*light).color_inverse_square_range.rgb * amount;
    }
    return sum * FRAC_1_PI;
}

@fragment
fn fragment(in: VertexOutput, @builtin(front_facing) is_front: bool) -> @location(0) vec4<f32> {
#ifdef VISIBILITY_RANGE_DITHER
    visibility_range_dither(in.position, in.visibility_range_dither);
#endif
    var albedo = material.color;
#ifdef VERTEX_UVS_A
    albedo = albedo * textureSample(base_texture, base_sampler, in.uv);
#endif
#ifdef VERTEX_COLORS
    albedo = albedo * in.color;
#endif
    if albedo.a < material.alpha_cutoff {
        discard;
    }
    // Both faces are drawn; the back face is lit through its own side.
    let n = select(-1.0, 1.0, is_front) * normalize(in.world_normal);
#ifdef LIGHTMAP
    var light = lightmap(in.uv_b, material.lightmap_exposure, in.instance_index);
#else
    var light = lights.ambient_color.rgb;
#endif
    for (var i = 0u; i < lights.n_directional_lights; i = i + 1u) {
        let sun = lights.directional_lights[i];
        light = light + sun.color.rgb * max(dot(n, sun.direction_to_light), 0.0) * FRAC_1_PI;
    }
    light = light + point_and_spot(in.world_position.xyz, n);
    let emissive = material.emissive.rgb * mix(1.0, view.exposure, material.emissive.a);
    var color = vec4<f32>(albedo.rgb * light * view.exposure + emissive, albedo.a);
    if material.unlit != 0u {
        color = albedo;
    }
#ifdef DISTANCE_FOG
    // Linear fog (the only falloff the game uses): be.x = start, be.y = end.
    let distance = length(in.world_position.xyz - view.world_position.xyz);
    let amount = fog.base_color.a * (1.0 - clamp((fog.be.y - distance) / (fog.be.y - fog.be.x), 0.0, 1.0));
    color = vec4<f32>(mix(color.rgb, fog.base_color.rgb, amount), color.a);
#endif
#ifdef TONEMAP_IN_SHADER
    color = tone_mapping(color, view.color_grading);
#endif
#ifdef BLEND_PREMULTIPLIED_ALPHA
    // Only additive materials take this blend state here: src * a + dst.
    color = vec4<f32>(color.rgb * color.a, 0.0);
#endif
    return color;
}
