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
	width      int
	height     int
	azimuth    float64
	elevation  float64
	up         string
	noSkeleton bool
}

func newRender(g *globals) *cobra.Command {
	o := &renderOptions{}
	cmd := &cobra.Command{
		Use:   "render RIG.glb -o OUT.png",
		Short: "Draw a rig: the mesh coloured by dominant joint, with its skeleton on top",
		Long: `render draws the rig in RIG (a glTF file with a skin) at one frame: the mesh
shaded and coloured by each vertex's joints, the skeleton's joints and bones
drawn over it (faded where hidden). Without a skin it draws the plain mesh.
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
	f.IntVar(&o.width, "width", 800, "picture width")
	f.IntVar(&o.height, "height", 600, "picture height")
	f.Float64Var(&o.azimuth, "azimuth", 30, "camera angle around the up axis, degrees")
	f.Float64Var(&o.elevation, "elevation", 15, "camera angle above the horizon, degrees")
	f.StringVar(&o.up, "up", "y", "up axis: x, y or z")
	f.BoolVar(&o.noSkeleton, "no-skeleton", false, "draw the mesh only")
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
	return nil
}

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
	sc, err := format.ReadScene(path, format.SceneOptions{})
	if err != nil {
		return err
	}
	plan.Read(sc.Files...)
	if err := plan.Check(); err != nil {
		return err
	}
	opt := render.Options{Width: o.width, Height: o.height, NoSkeleton: o.noSkeleton}
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

// drawScene draws the frame and clip o asks for, or the plain mesh of a
// scene without a rig.
func drawScene(sc *format.Scene, path string, o *renderOptions, opt render.Options) (image.Image, error) {
	if sc.Rig == nil {
		opt.Caption = path
		return render.Mesh(sc.Mesh, nil, nil, opt)
	}
	clip := -1
	for c, cl := range sc.Rig.Clips {
		if o.clip == "" || cl.Name == o.clip {
			clip = c
			break
		}
	}
	if o.clip != "" && clip < 0 {
		return nil, fmt.Errorf("%s has no clip %q", path, o.clip)
	}
	f := o.frame - 1
	if clip >= 0 {
		if f >= sc.Rig.Clips[clip].Frames {
			return nil, fmt.Errorf("--frame %d: clip %q has frames 1 to %d", o.frame, sc.Rig.Clips[clip].Name, sc.Rig.Clips[clip].Frames)
		}
		opt.Caption = fmt.Sprintf("%s  clip %s  frame %d/%d  %d joints", path, sc.Rig.Clips[clip].Name, o.frame, sc.Rig.Clips[clip].Frames, sc.Rig.Skeleton.Len())
	} else {
		opt.Caption = fmt.Sprintf("%s  rest pose  %d joints", path, sc.Rig.Skeleton.Len())
	}
	return render.Rig(sc.Rig, clip, f, opt)
}
