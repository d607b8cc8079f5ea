package collada

import (
	"encoding/base64"
	"fmt"

	"github.com/meshrig/meshrig/mesh"
)

// COLLADA materials: an image per texture file, an effect
// (profile_COMMON lambert) per material with its diffuse colour or base
// colour texture, and the material naming its effect; the skin's
// instance binds each part's symbol to its material and UV set.

// The libraries are pointers: the schema wants at least one element in
// each, so a rig without materials has none of them.
type (
	imageLibrary struct {
		List []imageEl `xml:"image"`
	}
	effectLibrary struct {
		List []effect `xml:"effect"`
	}
	materialLibrary struct {
		List []material `xml:"material"`
	}
)

type imageEl struct {
	ID       string `xml:"id,attr"`
	Name     string `xml:"name,attr,omitempty"`
	InitFrom string `xml:"init_from"`
}

type effect struct {
	ID      string        `xml:"id,attr"`
	Profile profileCommon `xml:"profile_COMMON"`
}

type profileCommon struct {
	Params    []newparam `xml:"newparam"`
	Technique technique  `xml:"technique"`
}

type newparam struct {
	SID     string     `xml:"sid,attr"`
	Surface *surfaceEl `xml:"surface,omitempty"`
	Sampler *sampler2D `xml:"sampler2D,omitempty"`
}

type surfaceEl struct {
	Type     string `xml:"type,attr"`
	InitFrom string `xml:"init_from"`
}

type sampler2D struct {
	Source string `xml:"source"`
}

type technique struct {
	SID     string  `xml:"sid,attr"`
	Lambert lambert `xml:"lambert"`
}

type lambert struct {
	Emission *colorOrTexture `xml:"emission,omitempty"`
	Diffuse  colorOrTexture  `xml:"diffuse"`
}

type colorOrTexture struct {
	Color   string      `xml:"color,omitempty"`
	Texture *textureRef `xml:"texture,omitempty"`
}

type textureRef struct {
	Texture  string `xml:"texture,attr"`
	TexCoord string `xml:"texcoord,attr"`
}

type material struct {
	ID     string   `xml:"id,attr"`
	Name   string   `xml:"name,attr"`
	Effect instance `xml:"instance_effect"`
}

type bindMaterial struct {
	Materials []instanceMaterial `xml:"technique_common>instance_material"`
}

type instanceMaterial struct {
	Symbol string            `xml:"symbol,attr"`
	Target string            `xml:"target,attr"`
	Binds  []bindVertexInput `xml:"bind_vertex_input"`
}

type bindVertexInput struct {
	Semantic      string `xml:"semantic,attr"`
	InputSemantic string `xml:"input_semantic,attr"`
	InputSet      int    `xml:"input_set,attr"`
}

// materials is what materialsOf writes.
type materials struct {
	images    *imageLibrary
	effects   *effectLibrary
	materials *materialLibrary
	syms      []string // per part: its material's symbol, "" for none
	bind      *bindMaterial
}

// materialsOf writes the surface's materials, with their textures unless
// colourOnly. An image is referenced by the path it was read from
// (relative to the input's folder: keep the texture beside the written
// file), or, when it came embedded, as a data: URI holding its bytes.
//
// COLLADA 1.5 gets colours only: its sampler2D names the image in an
// <instance_image> child, and assimp 5.x looks for the url on sampler2D
// itself, refusing the whole file; 1.4.1's surface/sampler pair it reads.
func materialsOf(s *mesh.Surface, n namer, colourOnly bool) materials {
	var out materials
	if s == nil || len(s.Materials) == 0 {
		return out
	}
	imageID := make([]string, len(s.Images))
	imageUsed := func(k int) string {
		if imageID[k] == "" {
			im := s.Images[k]
			imageID[k] = n.take("image-" + ncname(im.Name, "image"))
			uri := im.Path
			if uri == "" {
				uri = "data:" + im.MIMEType + ";base64," + base64.StdEncoding.EncodeToString(im.Data)
			}
			if out.images == nil {
				out.images = &imageLibrary{}
			}
			out.images.List = append(out.images.List, imageEl{ID: imageID[k], Name: im.Name, InitFrom: uri})
		}
		return imageID[k]
	}
	out.effects, out.materials = &effectLibrary{}, &materialLibrary{}
	matID := make([]string, len(s.Materials))
	for k := range s.Materials {
		m := &s.Materials[k]
		id := n.take("material-"+ncname(m.Name, "material"), "", "-effect", "-surface", "-sampler")
		matID[k] = id
		e := effect{ID: id + "-effect", Profile: profileCommon{Technique: technique{SID: "common"}}}
		c := m.BaseColor
		e.Profile.Technique.Lambert.Diffuse.Color = string(appendFloats(nil, float64(c[0]), float64(c[1]), float64(c[2]), float64(c[3])))
		if t := m.BaseColorTexture; t != nil && !colourOnly {
			img := imageUsed(t.Image)
			e.Profile.Params = []newparam{
				{SID: id + "-surface", Surface: &surfaceEl{Type: "2D", InitFrom: img}},
				{SID: id + "-sampler", Sampler: &sampler2D{Source: id + "-surface"}},
			}
			e.Profile.Technique.Lambert.Diffuse = colorOrTexture{Texture: &textureRef{Texture: id + "-sampler", TexCoord: fmt.Sprintf("UVSET%d", t.UVSet)}}
		}
		if em := m.Emissive; em != [3]float32{} {
			e.Profile.Technique.Lambert.Emission = &colorOrTexture{Color: string(appendFloats(nil, float64(em[0]), float64(em[1]), float64(em[2]), 1))}
		}
		out.effects.List = append(out.effects.List, e)
		out.materials.List = append(out.materials.List, material{ID: id, Name: m.Name, Effect: instance{URL: "#" + e.ID}})
	}
	out.bind = &bindMaterial{}
	bound := map[int]string{}
	for _, p := range s.Parts {
		sym := ""
		if p.Material >= 0 {
			if b, ok := bound[p.Material]; ok {
				sym = b
			} else {
				sym = matID[p.Material] + "-symbol"
				bound[p.Material] = sym
				im := instanceMaterial{Symbol: sym, Target: "#" + matID[p.Material]}
				for set := range s.UVs {
					im.Binds = append(im.Binds, bindVertexInput{Semantic: fmt.Sprintf("UVSET%d", set), InputSemantic: "TEXCOORD", InputSet: set})
				}
				out.bind.Materials = append(out.bind.Materials, im)
			}
		}
		out.syms = append(out.syms, sym)
	}
	if len(out.bind.Materials) == 0 {
		out.bind = nil
	}
	return out
}
