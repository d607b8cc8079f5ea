package usd

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
)

// ReadScene reads a .usda, .usdc or .usdz file name in fsys that meshrig
// wrote (Read, ReadUSDC, ReadUSDZ) for format.ReadScene: the rig as ground truth, its
// rest mesh, and its clips played through FK and LBS as the sequence.
// opt.Clip keeps one clip and opt.Frames a range of frames; clips are not
// resampled, so opt.FPS must be 0 or each kept clip's own rate.
func ReadScene(fsys fs.FS, name string, opt format.SceneOptions) (*format.Scene, error) {
	if err := opt.Frames.Validate(); err != nil {
		return nil, err
	}
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	var r *rig.Rig
	switch strings.ToLower(path.Ext(name)) {
	case ".usdz":
		r, err = ReadUSDZ(bytes.NewReader(data), int64(len(data)))
	case ".usdc":
		r, err = ReadUSDC(bytes.NewReader(data))
	default:
		r, err = Read(bytes.NewReader(data))
	}
	if err != nil {
		return nil, format.WithFile(err, name)
	}
	if opt.Clip != "" {
		var keep []rig.Clip
		var names []string
		for _, c := range r.Clips {
			if c.Name == opt.Clip {
				keep = append(keep, c)
			}
			names = append(names, fmt.Sprintf("%q", c.Name))
		}
		if keep == nil {
			return nil, fmt.Errorf("%s: no clip %q (it has %s)", name, opt.Clip, strings.Join(names, ", "))
		}
		r.Clips = keep
	}
	ctx := opt.Context
	if ctx == nil {
		ctx = context.Background()
	}
	out := &format.Scene{Mesh: r.Mesh, Rig: r, Files: []string{name}}
	if len(r.Clips) == 0 {
		return out, nil
	}
	s := seq.New(r.Mesh)
	for k := range r.Clips {
		c := &r.Clips[k]
		if opt.FPS != 0 && opt.FPS != c.FPS {
			return nil, fmt.Errorf("%s: clip %q is sampled at %v fps; meshrig does not resample USD clips (give no rate, or %v)", name, c.Name, c.FPS, c.FPS)
		}
		lo, hi, err := opt.Frames.Span(c.Frames)
		if err != nil {
			return nil, fmt.Errorf("%s: clip %q: %w", name, c.Name, err)
		}
		n := r.Skeleton.Len()
		c.Rotation, c.Translation = c.Rotation[lo*n:hi*n], c.Translation[lo*n:hi*n]
		c.Frames = hi - lo
		s.StartClip(c.Name, c.FPS)
		for f := 0; f < c.Frames; f++ {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if err := s.AddFrame(r.Frame(nil, k, f), fmt.Sprintf("%s#%d", c.Name, lo+f+1)); err != nil {
				return nil, err
			}
		}
	}
	out.Sequence = s
	return out, nil
}
