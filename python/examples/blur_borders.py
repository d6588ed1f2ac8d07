"""Blur a picture in every border mode with tilecl, and write each result as a PNG.

    python python/examples/blur_borders.py [INPUT] [OUTPUT_DIR] [--sigma S]

INPUT defaults to docs/images/input.png, OUTPUT_DIR to ./blur_borders. Writes gray.png (the picture through
tilecl.rgb_to_gray) and, for each border mode, blur_<mode>.png (the colour picture) and gray_blur_<mode>.png.
The picture goes to the device once; the ops run on device arrays; each result comes back once. Reading and
writing PNGs uses OpenCV's Python module (pip install opencv-python-headless).
"""

import argparse
import pathlib

import cv2
import pyopencl.array as cl_array
import tilecl
import tilecl.numpy

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("input", nargs="?", default=REPOSITORY / "docs" / "images" / "input.png", type=pathlib.Path)
parser.add_argument("output", nargs="?", default=pathlib.Path("blur_borders"), type=pathlib.Path)
parser.add_argument("--sigma", type=float, default=10.0, help="standard deviation in pixels (radius: 3 sigma)")
arguments = parser.parse_args()

# OpenCV reads B, G, R; tilecl's RGB to gray wants R, G, B.
picture = cv2.cvtColor(cv2.imread(str(arguments.input), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
queue = tilecl.numpy.default_queue()
print(f"{arguments.input}: {picture.shape[1]} x {picture.shape[0]} on {queue.device.name}")

colour = cl_array.to_device(queue, picture)  # H x W x 3 uint8
gray = tilecl.rgb_to_gray(colour)  # H x W uint8
arguments.output.mkdir(parents=True, exist_ok=True)
cv2.imwrite(str(arguments.output / "gray.png"), gray.get())
for border in tilecl.Border:
    name = border.name.lower()
    blurred = tilecl.gaussian_blur(colour, arguments.sigma, border=border)
    cv2.imwrite(str(arguments.output / f"blur_{name}.png"), cv2.cvtColor(blurred.get(), cv2.COLOR_RGB2BGR))
    cv2.imwrite(
        str(arguments.output / f"gray_blur_{name}.png"),
        tilecl.gaussian_blur(gray, arguments.sigma, border=border).get(),
    )
    print(f"wrote {arguments.output / f'blur_{name}.png'} and gray_blur_{name}.png")
