package collada

import "encoding/xml"

// The subset of the COLLADA 1.4.1 schema meshrig writes, as typed
// structs. Field order is element order: the schema fixes it.

type document struct {
	XMLName    xml.Name         `xml:"COLLADA"`
	Xmlns      string           `xml:"xmlns,attr"`
	Version    string           `xml:"version,attr"`
	Asset      asset            `xml:"asset"`
	Images     *imageLibrary    `xml:"library_images"`
	Effects    *effectLibrary   `xml:"library_effects"`
	Materials  *materialLibrary `xml:"library_materials"`
	Geometries []geometry       `xml:"library_geometries>geometry"`
	Controller []controller     `xml:"library_controllers>controller"`
	Animations *animations      `xml:"library_animations"`
	Clips      *animationClips  `xml:"library_animation_clips"`
	Scenes     []visualScene    `xml:"library_visual_scenes>visual_scene"`
	Scene      sceneInstance    `xml:"scene"`
}

type asset struct {
	Tool     string `xml:"contributor>authoring_tool"`
	Created  string `xml:"created"`
	Modified string `xml:"modified"`
	Unit     unit   `xml:"unit"`
	UpAxis   string `xml:"up_axis"`
}

type unit struct {
	Name  string `xml:"name,attr"`
	Meter number `xml:"meter,attr"`
}

type geometry struct {
	ID   string `xml:"id,attr"`
	Name string `xml:"name,attr"`
	Mesh meshEl `xml:"mesh"`
}

type meshEl struct {
	Sources   []source    `xml:"source"`
	Vertices  vertices    `xml:"vertices"`
	Polylist  []polylist  `xml:"polylist"`
	Triangles []triangles `xml:"triangles"`
}

type source struct {
	ID     string     `xml:"id,attr"`
	Floats *floatArr  `xml:"float_array,omitempty"`
	Names  *nameArr   `xml:"Name_array,omitempty"`
	Access accessorEl `xml:"technique_common>accessor"`
}

type floatArr struct {
	ID    string `xml:"id,attr"`
	Count int    `xml:"count,attr"`
	Data  string `xml:",chardata"`
}

type nameArr struct {
	ID    string `xml:"id,attr"`
	Count int    `xml:"count,attr"`
	Data  string `xml:",chardata"`
}

type accessorEl struct {
	Source string  `xml:"source,attr"`
	Count  int     `xml:"count,attr"`
	Stride int     `xml:"stride,attr"`
	Params []param `xml:"param"`
}

type param struct {
	Name string `xml:"name,attr"`
	Type string `xml:"type,attr"`
}

type vertices struct {
	ID     string  `xml:"id,attr"`
	Inputs []input `xml:"input"`
}

type input struct {
	Semantic string `xml:"semantic,attr"`
	Source   string `xml:"source,attr"`
	Offset   *int   `xml:"offset,attr,omitempty"`
	Set      *int   `xml:"set,attr,omitempty"`
}

type polylist struct {
	Material string  `xml:"material,attr,omitempty"`
	Count    int     `xml:"count,attr"`
	Inputs   []input `xml:"input"`
	VCount   string  `xml:"vcount"`
	P        string  `xml:"p"`
}

type triangles struct {
	Material string  `xml:"material,attr,omitempty"`
	Count    int     `xml:"count,attr"`
	Inputs   []input `xml:"input"`
	P        string  `xml:"p"`
}

type controller struct {
	ID   string `xml:"id,attr"`
	Name string `xml:"name,attr"`
	Skin skin   `xml:"skin"`
}

type skin struct {
	Source        string        `xml:"source,attr"`
	BindShape     string        `xml:"bind_shape_matrix"`
	Sources       []source      `xml:"source"`
	Joints        jointsEl      `xml:"joints"`
	VertexWeights vertexWeights `xml:"vertex_weights"`
}

type jointsEl struct {
	Inputs []input `xml:"input"`
}

type vertexWeights struct {
	Count  int     `xml:"count,attr"`
	Inputs []input `xml:"input"`
	VCount string  `xml:"vcount"`
	V      string  `xml:"v"`
}

// The animation libraries are pointers so a rig without clips writes
// none: the schema wants at least one entry in each.
type animations struct {
	List []animation `xml:"animation"`
}

type animationClips struct {
	List []animationClip `xml:"animation_clip"`
}

// animation holds its sources, then all samplers, then all channels, in
// the order the schema requires.
type animation struct {
	ID       string    `xml:"id,attr"`
	Name     string    `xml:"name,attr,omitempty"`
	Sources  []source  `xml:"source"`
	Samplers []sampler `xml:"sampler"`
	Channels []channel `xml:"channel"`
}

type sampler struct {
	ID     string  `xml:"id,attr"`
	Inputs []input `xml:"input"`
}

type channel struct {
	Source string `xml:"source,attr"`
	Target string `xml:"target,attr"`
}

type animationClip struct {
	ID        string     `xml:"id,attr"`
	Name      string     `xml:"name,attr,omitempty"`
	Start     number     `xml:"start,attr"`
	End       number     `xml:"end,attr"`
	Instances []instance `xml:"instance_animation"`
}

type instance struct {
	URL string `xml:"url,attr"`
}

type visualScene struct {
	ID    string `xml:"id,attr"`
	Name  string `xml:"name,attr"`
	Nodes []node `xml:"node"`
}

type node struct {
	ID         string              `xml:"id,attr"`
	SID        string              `xml:"sid,attr,omitempty"`
	Name       string              `xml:"name,attr"`
	Type       string              `xml:"type,attr"`
	Matrix     *matrixEl           `xml:"matrix,omitempty"`
	Rotates    []rotateEl          `xml:"rotate"` // COLLADA 1.5 joint axes (kinematics.go)
	Controller *instanceController `xml:"instance_controller,omitempty"`
	Children   []node              `xml:"node,omitempty"`
}

type matrixEl struct {
	SID  string `xml:"sid,attr"`
	Data string `xml:",chardata"`
}

type instanceController struct {
	URL          string        `xml:"url,attr"`
	Skeleton     string        `xml:"skeleton"`
	BindMaterial *bindMaterial `xml:"bind_material,omitempty"`
}

type sceneInstance struct {
	Visual instance `xml:"instance_visual_scene"`
}
