// Package usd writes rigs as USD (Universal Scene Description) with the
// UsdSkel schemas — a text layer (.usda), a binary crate layer (.usdc) or
// a USDZ package (.usdz) — and reads back the files it writes.
//
// A written layer holds one SkelRoot, /Rig (the layer's defaultPrim), with
//
//	/Rig/Skeleton            Skeleton: joints as paths ("hips/spine"), jointNames
//	                         as the rig names them, bindTransforms (world rest
//	                         matrices) and restTransforms (local ones), matrix4d
//	                         in USD's row-vector layout (translation in the last row)
//	/Rig/Animations/<clip>   SkelAnimation per clip: rotations (quatf), translations
//	                         (float3) sampled at every frame, scales (half3) 1, or
//	                         sampled too for scale tracks (--stretch); the
//	                         Skeleton's skel:animationSource is the first clip
//	/Rig/Body                Mesh: points, the input's polygons (or triangles),
//	                         normals, UV sets (st, st1 …) and colour sets
//	                         (displayColor, displayOpacity …) as primvars,
//	                         primvars:skel:jointIndices/jointWeights (4 per point),
//	                         primvars:skel:geomBindTransform (identity), a GeomSubset
//	                         per part bound to its material
//	/Rig/Materials/<name>    UsdPreviewSurface per material, with its base colour
//	                         texture through UsdUVTexture
//
// Layer metadata: upAxis Y, metersPerUnit 1, timeCodesPerSecond the first
// clip's rate, start and end time codes its frames. Every clip's samples
// start at time code 0; frame f of a clip at fps is at f·timeCodesPerSecond/fps,
// and its customData keeps its name and rate.
//
// The package registers ".usda" (format "usd"), ".usdc" (format "usdc")
// and ".usdz" (format "usdz") for format.WriteFile and format.ReadScene:
//
//	import _ "github.com/meshrig/meshrig/format/usd"
//	err := format.WriteFile("walk.usda", r, format.WriteOptions{})
//
// Read (a .usda layer), ReadUSDC (a crate), ReadUSDZ (a package) and
// ReadScene read back what the writers write — joints, weights, clips,
// polygons, normals, UV and colour sets, materials and parts: a parser
// for the subset of usda the writer emits and a decoder for the crate
// features it uses, not a general USD reader; anything else is an error
// naming its line or byte offset (format.ParseError).
//
// Values travel at the precision UsdSkel gives them: points, rotations
// and translations as float32 (point3f, quatf, float3), bind and rest
// matrices as float64. TinyUSDZ (npm tinyusdz, .ci/load-usd.mjs) loads
// every file the tests write, and three.js's USDLoader (npm three,
// .ci/play-usd.mjs) plays them as our own FK and LBS do.
//
// WriteUSDC encodes the same layer as a crate file (version 0.8.0: LZ4
// framed sections, USD's integer coding, the path tree); TinyUSDZ prints
// back the same layer from the .usdc as from the .usda. The .usdz holds
// that crate as its root layer, with the textures.
package usd
