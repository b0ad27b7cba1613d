#include "transform_handle.hpp"

namespace fft3d::c_api {

const std::string& TransformHandle::plan_text() const {
  if (plan_text_.empty()) plan_text_ = to_yaml(plan());
  return plan_text_;
}

TransformDesc desc_of(const Plan& plan) {
  return {.extents = plan.size, .kind = kind_of(plan), .precision = plan.precision, .batch = plan.batch};
}

}  // namespace fft3d::c_api
