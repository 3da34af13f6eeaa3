#pragma once

#include <QString>

// The application's look: the system's own, or Fusion with a light or a dark palette (for desktops whose
// platform theme gives Qt no dark palette). Remembered in the settings.
namespace Theme {
enum class Choice { System, Light, Dark };
void apply(Choice choice);
Choice saved();
void save(Choice choice);
QString name(Choice choice);
} // namespace Theme
