import { chooseTheme, useThemeChoice, type ThemeChoice } from '../theme';

const CHOICES: { value: ThemeChoice; label: string }[] = [
  { value: 'system', label: 'Follow the system' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/** Light, dark or the system's choice; applies at once and is kept in this browser, so it needs no Save. */
export function AppearanceForm() {
  const choice = useThemeChoice();
  return (
    <fieldset className="theme-choice">
      <legend>Theme</legend>
      {CHOICES.map(({ value, label }) => (
        <label key={value} className="field-inline">
          <input
            type="radio"
            name="theme"
            value={value}
            checked={choice === value}
            onChange={() => chooseTheme(value)}
          />
          {label}
        </label>
      ))}
      <p className="field-hint">Applies at once; kept in this browser.</p>
    </fieldset>
  );
}
