package usd

import (
	"strings"

	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

// materialPaths returns the prim name of every surface material (none
// without a surface).
func materialPaths(r *rig.Rig) []string {
	s := r.Mesh.Surface
	if s == nil {
		return nil
	}
	n := namer{}
	out := make([]string, len(s.Materials))
	for k, m := range s.Materials {
		out[k] = n.name(m.Name, "material")
	}
	return out
}

// writeMaterials writes each material as a UsdPreviewSurface network:
// base colour factor, metallic, roughness, emissive colour, opacity (and
// the MASK cutoff as opacityThreshold), and, when the material has a base
// colour texture that asset can name, a UsdUVTexture reading it through
// a UsdPrimvarReader_float2 of its UV set, scaled by the factor. The
// material's name as the input had it is in customData.
func writeMaterials(e *enc, r *rig.Rig, names []string, asset func(k int) string) {
	s := r.Mesh.Surface
	e.line("def Scope " + quote(materialName))
	e.open("")
	for k := range s.Materials {
		m := &s.Materials[k]
		base := "/" + rootName + "/" + materialName + "/" + names[k]
		if k > 0 {
			e.line("")
		}
		e.line("def Material " + quote(names[k]) + " (")
		e.line("    customData = {")
		e.line("        string name = " + quote(m.Name))
		e.line("    }")
		e.line(")")
		e.open("")
		e.line("token outputs:surface.connect = <" + base + "/PreviewSurface.outputs:surface>")
		e.line("")
		tex := ""
		if t := m.BaseColorTexture; t != nil {
			tex = asset(t.Image)
		}
		e.line("def Shader \"PreviewSurface\"")
		e.open("")
		e.line(`uniform token info:id = "UsdPreviewSurface"`)
		if tex != "" {
			e.line("color3f inputs:diffuseColor.connect = <" + base + "/BaseColor.outputs:rgb>")
		} else {
			e.line("color3f inputs:diffuseColor = " + string(tuple(nil, float64(m.BaseColor[0]), float64(m.BaseColor[1]), float64(m.BaseColor[2]))))
		}
		e.line("color3f inputs:emissiveColor = " + string(tuple(nil, float64(m.Emissive[0]), float64(m.Emissive[1]), float64(m.Emissive[2]))))
		e.line("float inputs:metallic = " + string(f32(nil, float64(m.Metallic))))
		e.line("float inputs:roughness = " + string(f32(nil, float64(m.Roughness))))
		switch {
		case m.AlphaMode == "OPAQUE" || m.AlphaMode == "":
		case tex != "":
			e.line("float inputs:opacity.connect = <" + base + "/BaseColor.outputs:a>")
		default:
			e.line("float inputs:opacity = " + string(f32(nil, float64(m.BaseColor[3]))))
		}
		if m.AlphaMode == "MASK" {
			e.line("float inputs:opacityThreshold = " + string(f32(nil, float64(m.AlphaCutoff))))
		}
		e.line("token outputs:surface")
		e.close()
		if tex != "" {
			writeTexture(e, base, tex, m)
		}
		e.close()
	}
	e.close()
}

// writeTexture writes the base colour texture and its UV reader.
func writeTexture(e *enc, base, path string, m *mesh.Material) {
	t := m.BaseColorTexture
	e.line("")
	e.line("def Shader \"BaseColor\"")
	e.open("")
	e.line(`uniform token info:id = "UsdUVTexture"`)
	e.line("asset inputs:file = " + assetPath(path))
	e.line(`token inputs:sourceColorSpace = "sRGB"`)
	c := m.BaseColor
	e.line("float4 inputs:scale = " + string(tuple(nil, float64(c[0]), float64(c[1]), float64(c[2]), float64(c[3]))))
	e.line("float2 inputs:st.connect = <" + base + "/TexCoord.outputs:result>")
	e.line("token inputs:wrapS = " + quote(wrap(t.Sampler.WrapS)))
	e.line("token inputs:wrapT = " + quote(wrap(t.Sampler.WrapT)))
	e.line("float outputs:a")
	e.line("float3 outputs:rgb")
	e.close()
	e.line("")
	e.line("def Shader \"TexCoord\"")
	e.open("")
	e.line(`uniform token info:id = "UsdPrimvarReader_float2"`)
	e.line("string inputs:varname = " + quote(stName(t.UVSet)))
	e.line("float2 outputs:result")
	e.close()
}

// wrap maps glTF's (OpenGL's) wrap codes to UsdUVTexture's.
func wrap(code int) string {
	switch code {
	case 33071:
		return "clamp"
	case 33648:
		return "mirror"
	}
	return "repeat"
}

// assetPath returns an asset literal: @path@, or @@@path@@@ when the path
// holds an '@'.
func assetPath(p string) string {
	if strings.Contains(p, "@") {
		return "@@@" + p + "@@@"
	}
	return "@" + p + "@"
}
