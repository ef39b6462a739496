// Where a fleet's images come from: list files and kubectl output.
#include "cuvet/fleet/image_sources.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cuvet/core/error.hpp"

using namespace cuvet;
using Strings = std::vector<std::string>;

namespace {

std::string input_error(const std::function<void()>& run) {
    try {
        run();
    } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::input);
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("fleet list file: one reference a line, comments and blank lines skipped, each once",
          "[fleet]") {
    const std::string text =
        "# GPU images of team A\n"
        "docker://reg.example/a/train:1\n"
        "\n"
        "  docker://reg.example/a/serve:2   # the serving image\r\n"
        "docker://reg.example/a/train:1\n"
        "images/local.tar";
    CHECK(fleet::parse_image_list(text, "fleet.txt") == Strings{"docker://reg.example/a/train:1",
                                                                "docker://reg.example/a/serve:2",
                                                                "images/local.tar"});
    CHECK(fleet::parse_image_list("# nothing\n\n", "fleet.txt").empty());
    CHECK(input_error([] { fleet::parse_image_list("a:1\nb:1 c:1\n", "fleet.txt"); }) ==
          "fleet.txt:2: 'b:1 c:1' is more than one image reference (one reference a line)");
}

TEST_CASE("fleet pods: containers and init containers of pods and of controllers, each once",
          "[fleet]") {
    using nlohmann::json;
    json pod = {{"kind", "Pod"},
                {"spec",
                 {{"initContainers", {{{"name", "fetch"}, {"image", "busybox:1.36"}}}},
                  {"containers",
                   {{{"name", "train"}, {"image", "nvcr.io/nvidia/pytorch:24.01-py3"}},
                    {{"name", "sidecar"}, {"image", "busybox:1.36"}}}}}}};
    const json cronjob = json::parse(R"({"kind": "CronJob", "spec": {"jobTemplate": {"spec":
        {"template": {"spec": {"containers": [{"name": "c", "image": "reg:5000/eval@sha256:aa"}]}}}}}})");
    json list = {{"apiVersion", "v1"}, {"kind", "List"}, {"items", {pod, pod, cronjob}}};
    CHECK(fleet::pod_images(list.dump(), "pods.json") ==
          Strings{"docker://busybox:1.36", "docker://nvcr.io/nvidia/pytorch:24.01-py3",
                  "docker://reg:5000/eval@sha256:aa"});
    CHECK(fleet::pod_images(R"({"kind":"List","items":[]})", "pods.json").empty());

    CHECK(input_error([] { fleet::pod_images("{", "pods.json"); }) == "pods.json: not valid JSON");
    CHECK(input_error([] { fleet::pod_images("[]", "pods.json"); }) ==
          "pods.json: not a Kubernetes object or list (expected `kubectl get pods -A -o json`)");
    CHECK(input_error([] {
              fleet::pod_images(R"({"items":[{"spec":{"containers":[{"image":7}]}}]})",
                                "pods.json");
          }) == "pods.json: .items[0].spec.containers[0].image is not an image reference");
}
