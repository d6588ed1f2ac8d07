// OpenCV's border constant for each tilecl border rule, for the bench's OpenCV rows (bench/cases/image.cpp and
// the image sweep). Only where the bench is built with OpenCV.
#pragma once

#ifdef TILECL_HAVE_OPENCV
#include <opencv2/core.hpp>

#include "tilecl/types.hpp"

namespace tilecl::bench {

inline int opencv_border(Border border) {
  switch (border) {
    case Border::Zero:
    case Border::Constant:
      return cv::BORDER_CONSTANT;
    case Border::Clamp:
      return cv::BORDER_REPLICATE;
    case Border::Mirror:
      return cv::BORDER_REFLECT_101;
    case Border::Reflect:
      return cv::BORDER_REFLECT;
    case Border::Wrap:
      return cv::BORDER_WRAP;
  }
  return cv::BORDER_DEFAULT;
}

}  // namespace tilecl::bench
#endif
