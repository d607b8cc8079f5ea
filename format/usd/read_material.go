package usd

import (
	"strconv"
	"strings"

	"github.com/meshrig/meshrig/mesh"
)

// readMaterials reads the Materials scope into s and returns each
// material's prim path.
func readMaterials(root *prim, s *mesh.Surface) ([]string, error) {
	scope := root.child(materialName)
	if scope == nil {
		return nil, nil
	}
	var paths []string
	images := map[string]int{}
	for _, mp := range scope.children {
		if mp.typ != "Material" {
			continue
		}
		mat := mesh.NewMaterial(mp.name)
		if cd, ok := mp.meta["customData"]; ok && cd.kind == vDict {
			if v, ok := cd.dict["name"]; ok && v.kind == vString {
				mat.Name = v.str
			}
		}
		if sh := mp.child("PreviewSurface"); sh != nil {
			if err := readPreview(sh, mp, &mat, s, images); err != nil {
				return nil, err
			}
		}
		s.Materials = append(s.Materials, mat)
		paths = append(paths, "/"+root.name+"/"+scope.name+"/"+mp.name)
	}
	return paths, nil
}

// readPreview reads a UsdPreviewSurface's inputs into mat.
func readPreview(sh, mp *prim, mat *mesh.Material, s *mesh.Surface, images map[string]int) error {
	num := func(name string, w int) ([]float64, error) {
		a := sh.props["inputs:"+name]
		if a == nil || a.val == nil {
			return nil, nil
		}
		if w == 1 {
			if a.val.kind != vNumber {
				return nil, failf(a.line, "%s: expected a number", a.name)
			}
			return []float64{a.val.num}, nil
		}
		return numbers(a, a.val, 1, w)
	}
	if v, err := num("diffuseColor", 3); err != nil {
		return err
	} else if v != nil {
		mat.BaseColor = [4]float32{float32(v[0]), float32(v[1]), float32(v[2]), 1}
	}
	if v, err := num("emissiveColor", 3); err != nil {
		return err
	} else if v != nil {
		mat.Emissive = [3]float32{float32(v[0]), float32(v[1]), float32(v[2])}
	}
	for name, dst := range map[string]*float32{"metallic": &mat.Metallic, "roughness": &mat.Roughness} {
		if v, err := num(name, 1); err != nil {
			return err
		} else if v != nil {
			*dst = float32(v[0])
		}
	}
	if v, err := num("opacity", 1); err != nil {
		return err
	} else if v != nil || sh.props["inputs:opacity"] != nil {
		mat.AlphaMode = "BLEND"
		if v != nil {
			mat.BaseColor[3] = float32(v[0])
		}
	}
	if v, err := num("opacityThreshold", 1); err != nil {
		return err
	} else if v != nil {
		mat.AlphaMode, mat.AlphaCutoff = "MASK", float32(v[0])
	}
	dc := sh.props["inputs:diffuseColor"]
	if dc == nil || dc.conn == "" {
		return nil
	}
	tex := mp.child("BaseColor")
	if tex == nil || !strings.HasSuffix(dc.conn, "/BaseColor.outputs:rgb") {
		return failf(dc.line, "diffuseColor connects to %q, not the material's BaseColor texture", dc.conn)
	}
	fa := tex.props["inputs:file"]
	if fa == nil || fa.val == nil || fa.val.kind != vAsset {
		return failf(tex.line, "texture %q has no inputs:file asset", tex.name)
	}
	ref := &mesh.TextureRef{Scale: 1}
	k, ok := images[fa.val.str]
	if !ok {
		k = len(s.Images)
		images[fa.val.str] = k
		s.Images = append(s.Images, mesh.Image{Name: fa.val.str, Path: fa.val.str, MIMEType: mime(fa.val.str)})
	}
	ref.Image = k
	if sc := tex.props["inputs:scale"]; sc != nil && sc.val != nil {
		v, err := numbers(sc, sc.val, 1, 4)
		if err != nil {
			return err
		}
		mat.BaseColor = [4]float32{float32(v[0]), float32(v[1]), float32(v[2]), float32(v[3])}
	}
	for _, w := range []struct {
		name string
		dst  *int
	}{{"wrapS", &ref.Sampler.WrapS}, {"wrapT", &ref.Sampler.WrapT}} {
		if a := tex.props["inputs:"+w.name]; a != nil && a.val != nil && a.val.kind == vString {
			switch a.val.str {
			case "clamp":
				*w.dst = 33071
			case "mirror":
				*w.dst = 33648
			}
		}
	}
	if rd := mp.child("TexCoord"); rd != nil {
		if a := rd.props["inputs:varname"]; a != nil && a.val != nil && a.val.kind == vString {
			set, err := uvSet(a.val.str)
			if err != nil {
				return failf(a.line, "%v", err)
			}
			ref.UVSet = set
		}
	}
	mat.BaseColorTexture = ref
	return nil
}

// uvSet returns the UV set a primvar name st, st1, … names.
func uvSet(name string) (int, error) {
	if name == "st" {
		return 0, nil
	}
	if k, err := strconv.Atoi(strings.TrimPrefix(name, "st")); err == nil && strings.HasPrefix(name, "st") && k > 0 {
		return k, nil
	}
	return 0, failf(0, "texture coordinates %q are not a UV set meshrig writes (st, st1, …)", name)
}

// mime guesses an image's type from its file name.
func mime(path string) string {
	switch strings.ToLower(path[strings.LastIndexByte(path, '.')+1:]) {
	case "png":
		return "image/png"
	case "jpg", "jpeg":
		return "image/jpeg"
	}
	return ""
}
