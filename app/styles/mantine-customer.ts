// Only the components the customer pages use: slow phones load a fraction of Mantine's CSS.
import "@mantine/core/styles/Card.css";
import "@mantine/core/styles/Alert.css";
import "@mantine/core/styles/Button.css";
import "@mantine/core/styles/Loader.css";
import "@mantine/core/styles/ActionIcon.css";
import "@mantine/core/styles/Input.css";
import "@mantine/core/styles/SimpleGrid.css";
import "@mantine/core/styles/Table.css";
import "@mantine/core/styles/Image.css";
