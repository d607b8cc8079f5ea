package main

import (
	"fmt"
	"image"
	"strings"

	"github.com/spf13/cobra"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/safefile"
	"github.com/meshrig/meshrig/render"
)

type renderOptions struct {
	out        string
	frame      int
	clip       string
	object     string
	width      int
	height     int
	azimuth    float64
	elevation  float64
	up         string
	noSkeleton bool
	color      string
}

func newRender(g *globals) *cobra.Command {
	o := &renderOptions{}
	cmd := &cobra.Command{
		Use:   "render RIG.glb -o OUT.png",
		Short: "Draw a rig: the mesh with its texture or coloured by dominant joint, with its skeleton on top",
		Long: `render draws the rig in RIG (a glTF file with a skin) at one frame: the mesh
shaded and painted with its own materials and textures when it has them
(--color texture), else coloured by each vertex's joints (--color joint), the
skeleton's joints and bones drawn over it (faded where hidden). Without a
skin it draws the plain mesh.
The camera frames the rest pose from a 3/4 view unless told otherwise.`,
		Example: `  meshrig render out.glb -o out.png
  meshrig render out.glb -o run-12.png --clip run --frame 12 --azimuth 90`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRender(cmd, g, o, args[0])
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.out, "output", "o", "", "output PNG (required)")
	f.IntVar(&o.frame, "frame", 1, "frame to draw (1-based)")
	f.StringVar(&o.clip, "clip", "", "clip to draw (default: the first)")
	f.StringVar(&o.object, "object", "", "draw only the mesh at this path of an Alembic file (default: every animated mesh)")
	f.IntVar(&o.width, "width", 800, "picture width")
	f.IntVar(&o.height, "height", 600, "picture height")
	f.Float64Var(&o.azimuth, "azimuth", 30, "camera angle around the up axis, degrees")
	f.Float64Var(&o.elevation, "elevation", 15, "camera angle above the horizon, degrees")
	f.StringVar(&o.up, "up", "y", "up axis: x, y or z")
	f.BoolVar(&o.noSkeleton, "no-skeleton", false, "draw the mesh only")
	f.StringVar(&o.color, "color", "auto", "colours: texture (the mesh's materials), joint (dominant joint), or auto (texture when the mesh has materials)")
	return cmd
}

func (o *renderOptions) check() error {
	if err := firstErr(
		intIn("--frame", o.frame, 1, 1<<30),
		intIn("--width", o.width, 16, 16384),
		intIn("--height", o.height, 16, 16384),
		floatIn("--azimuth", o.azimuth, -3600, 3600),
		floatIn("--elevation", o.elevation, -90, 90),
	); err != nil {
		return err
	}
	if up := strings.ToLower(o.up); len(up) != 1 || !strings.Contains("xyz", up) {
		return fmt.Errorf("--up %q: want x, y or z", o.up)
	}
	if _, ok := paints[o.color]; !ok {
		return fmt.Errorf("--color %q: want auto, texture or joint", o.color)
	}
	return nil
}

// paints maps --color to the renderer's choice.
var paints = map[string]render.Paint{"auto": render.PaintAuto, "texture": render.PaintSurface, "joint": render.PaintJoints}

func runRender(cmd *cobra.Command, g *globals, o *renderOptions, path string) error {
	if err := o.check(); err != nil {
		return err
	}
	var plan safefile.Plan
	defer plan.Abort()
	plan.Read(path)
	if err := declarePNG(&plan, "-o", o.out); err != nil {
		return err
	}
	sc, err := format.ReadScene(path, format.SceneOptions{Object: o.object})
	if err != nil {
		return err
	}
	plan.Read(sc.Files...)
	if err := plan.Check(); err != nil {
		return err
	}
	opt := render.Options{Width: o.width, Height: o.height, NoSkeleton: o.noSkeleton, Paint: paints[o.color]}
	if cmd.Flags().Changed("azimuth") || cmd.Flags().Changed("elevation") || cmd.Flags().Changed("up") {
		opt.View = &render.View{Azimuth: o.azimuth, Elevation: o.elevation, Up: strings.Index("xyz", strings.ToLower(o.up))}
	}
	pic, err := drawScene(sc, path, o, opt)
	if err != nil {
		return err
	}
	if err := stagePNG(&plan, o.out, pic); err != nil {
		return err
	}
	if err := plan.Commit(cmd.Context()); err != nil {
		return err
	}
	g.logf("wrote %s", o.out)
	return nil
}

// drawScene draws the frame and clip o asks for: of the rig when the scene
// has one, else of its sampled animation (morph targets, a mesh cache),
// else its one mesh. Asking for a frame or clip a scene does not have is
// an error, never a silent rest pose.
func drawScene(sc *format.Scene, path string, o *renderOptions, opt render.Options) (image.Image, error) {
	var names []string
	var frames []int
	switch {
	case sc.Rig != nil:
		for _, c := range sc.Rig.Clips {
			names, frames = append(names, c.Name), append(frames, c.Frames)
		}
	case sc.Sequence != nil:
		for _, c := range sc.Sequence.Clips {
			names, frames = append(names, c.Name), append(frames, c.Len())
		}
	}
	clip := -1
	for c, name := range names {
		if o.clip == "" || name == o.clip {
			clip = c
			break
		}
	}
	what := "rig"
	if sc.Rig == nil {
		what = "mesh"
	}
	switch {
	case o.clip != "" && clip < 0 && len(names) == 0:
		return nil, fmt.Errorf("--clip %s: %s has no animation (a static %s)", o.clip, path, what)
	case o.clip != "" && clip < 0:
		return nil, fmt.Errorf("--clip %s: %s has no clip of that name (it has %q)", o.clip, path, names)
	case clip < 0 && o.frame > 1:
		return nil, fmt.Errorf("--frame %d: %s has no animation (a static %s): only its rest pose, frame 1", o.frame, path, what)
	case clip >= 0 && o.frame > frames[clip]:
		return nil, fmt.Errorf("--frame %d: clip %q has frames 1 to %d", o.frame, names[clip], frames[clip])
	}
	f := o.frame - 1
	joints := ""
	if sc.Rig != nil {
		joints = "  " + count(sc.Rig.Skeleton.Len(), "joint")
	}
	if clip >= 0 {
		opt.Caption = fmt.Sprintf("%s  clip %s  frame %d/%d%s", path, names[clip], o.frame, frames[clip], joints)
	} else {
		opt.Caption = fmt.Sprintf("%s  rest pose%s", path, joints)
	}
	switch {
	case sc.Rig != nil:
		return render.Rig(sc.Rig, clip, f, opt)
	case clip >= 0:
		s := sc.Sequence
		return render.Mesh(s.Rest, s.FrameInto(nil, s.Clips[clip].Start+f), nil, opt)
	}
	return render.Mesh(sc.Mesh, nil, nil, opt)
}
